import { useParams } from 'react-router';
import { TabNav } from '@console/components/tab-nav';
import { usePageTitle } from '@console/lib/use-page-title';
import { CataloguePanel } from './catalogue-panel';
import { PipelineCheckerPanel } from './pipeline-checker-panel';
import { UpgradeReportPanel } from './upgrade-report-panel';

const VIEWS = [
  { id: 'catalogue', label: 'Catalogue', path: '/deprecations' },
  { id: 'upgrade-report', label: 'Upgrade report', path: '/deprecations/upgrade-report' },
  { id: 'checker', label: 'Pipeline checker', path: '/deprecations/checker' },
] as const;

/** Spec 9: the deprecation catalogue, the upgrade report between two releases, and the pipeline checker. */
export function DeprecationsPage() {
  const requested = useParams().view;
  const view = VIEWS.find((candidate) => candidate.id === requested)?.id ?? 'catalogue';
  usePageTitle(VIEWS.find((candidate) => candidate.id === view)?.label, 'Deprecations');
  return (
    <section className="page">
      <h1>Deprecations</h1>
      <p className="muted">
        What each release deprecates and removes (planned dates may slip), what changes on an upgrade, and which lines of a pipeline
        configuration use something that goes away.
      </p>
      <TabNav label="Deprecations" tabs={VIEWS.map((item) => ({ id: item.id, label: item.label, to: item.path, active: item.id === view }))} />
      {view === 'catalogue' && <CataloguePanel />}
      {view === 'upgrade-report' && <UpgradeReportPanel />}
      {view === 'checker' && <PipelineCheckerPanel />}
    </section>
  );
}
