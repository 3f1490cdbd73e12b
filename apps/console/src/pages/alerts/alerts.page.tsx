import { useEffect, useRef, useState } from 'react';
import { useBulkUpdateAlerts } from '../../api/alert-workflow';
import { Link } from 'react-router';
import { AlertTab, PER_PAGE, SilencedFilter, useActiveExternalLink, useAlertCounts, useAlerts, useIntegrations } from '../../api/queries';
import { Alert, AlertBulkUpdateResult, AlertStatus, AlertStatusCounts, Project } from '../../api/types';
import { DataTable } from '../../components/data-table';
import { ErrorMessage } from '../../components/error-message';
import { HiddenLabelSelect } from '../../components/options';
import { SearchField } from '../../components/search-field';
import { Pagination } from '../../components/pagination';
import { SeverityLabel } from '../../components/severity';
import { TabNav } from '../../components/tab-nav';
import { TimeAgo } from '../../components/time-ago';
import { useDebounced } from '../../lib/use-debounced';
import { useListQuery } from '../../lib/use-list-query';
import { usePageTitle } from '../../lib/use-page-title';
import { can } from '../../session/roles';
import { useCurrentProject } from '../project-layout';
import { SilencedBadge } from '../silences/silence-badge';
import { assigneesText } from './alert-assignees';
import { AlertStatusControl, STATUS_LABELS } from './alert-status-control';
import { useCurrentMessage } from '../../components/current-message';
import { testAlertPath } from './send-test-alert.page';
import { OnCallNow } from '../oncall/on-call-now';

const TABS: Array<{ id: AlertTab; label: string }> = [
  { id: 'open', label: 'Open' },
  { id: 'triggered', label: 'Triggered' },
  { id: 'acknowledged', label: 'Acknowledged' },
  { id: 'resolved', label: 'Resolved' },
  { id: 'all', label: 'All' },
];

const SILENCED_FILTERS: Record<SilencedFilter, string> = {
  any: 'Silenced or not',
  silenced: 'Silenced only',
  not_silenced: 'Not silenced',
};

/** The silenced filter's options in the order shown: the keys of SILENCED_FILTERS, which are exactly the filters. */
const SILENCED_FILTER_VALUES: readonly SilencedFilter[] = Object.keys(SILENCED_FILTERS) as SilencedFilter[];

function silencedFilterOf(value: string | null): SilencedFilter {
  return value === 'true' ? 'silenced' : value === 'false' ? 'not_silenced' : 'any';
}

function tabOf(value: string | null): AlertTab {
  return TABS.find((tab) => tab.id === value)?.id ?? 'open';
}

/** Whether the tab lists alerts of this status (Open: triggered and acknowledged, as the API's `status=open`). */
export function tabHolds(tab: AlertTab, status: AlertStatus): boolean {
  if (tab === 'all') return true;
  if (tab === 'open') return status === 'triggered' || status === 'acknowledged';
  return tab === status;
}

/** An alert whose new status took it out of the tab shown. */
interface LeftTab {
  iid: number;
  status: AlertStatus;
  tab: AlertTab;
}

/** Monitor > Alerts: GitLab's alert list (status tabs with counts, search, paging), refreshed while open. */
export function AlertsPage() {
  const project = useCurrentProject();
  const { params, page, setQuery } = useListQuery();
  const tab = tabOf(params.get('status'));
  const [search, setSearch] = useState(params.get('search') ?? '');
  const query = useDebounced(search.trim());
  const silenced = silencedFilterOf(params.get('silenced'));
  const mine = params.get('assignee') === 'me';
  const alerts = useAlerts(project.id, tab, query, page, silenced, mine ? 'me' : undefined);
  const canChange = can(project, 'changeAlertStatus');
  // Rows ticked for "Acknowledge selected" (a pager storm acknowledged at once), by iid.
  const [selected, setSelected] = useState<number[]>([]);
  const bulk = useBulkUpdateAlerts(project.id);
  const bulkMessage = useCurrentMessage();
  const shown = alerts.data?.items ?? [];
  // Only rows shown count: a box ticked on another page or tab is not acted on unseen.
  const chosen = selected.filter((iid) => shown.some((alert) => alert.iid === iid));
  const select = (iid: number, on: boolean) => setSelected((current) => (on ? [...current, iid] : current.filter((other) => other !== iid)));
  const allSelected = shown.length > 0 && shown.every((alert) => selected.includes(alert.iid));
  const acknowledgeSelected = () => {
    bulkMessage.clear();
    bulk.mutate(
      { iids: chosen, status: 'acknowledged' },
      {
        onSuccess: (result) => {
          setSelected([]);
          const skipped = result.skipped.map((skip) => `#${skip.iid} (${SKIP_REASONS[skip.reason]})`).join(', ');
          bulkMessage.success(
            `Acknowledged ${result.updated.length} ${result.updated.length === 1 ? 'alert' : 'alerts'}${skipped ? `; left as they were: ${skipped}` : ''}.`,
          );
        },
        onError: (error) => bulkMessage.error(error, 'Not acknowledged'),
      },
    );
  };
  const counts = useAlertCounts(project.id);
  const externalLink = useActiveExternalLink(project.id, can(project, 'manageIntegrations'));
  usePageTitle('Alerts', project.path);
  // A changed alert that leaves the tab takes its row, and the focus, with it: the focus goes to
  // the note that says where it went.
  const [leftTab, setLeftTab] = useState<LeftTab | null>(null);
  const leftTabNote = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (leftTab) leftTabNote.current?.focus();
  }, [leftTab]);
  const onStatusChanged = (iid: number, status: AlertStatus): boolean => {
    if (tabHolds(tab, status)) return false;
    setLeftTab({ iid, status, tab });
    return true;
  };

  const tabLink = (id: AlertTab) => {
    const next = new URLSearchParams();
    if (id !== 'open') next.set('status', id);
    if (query) next.set('search', query);
    if (silenced !== 'any') next.set('silenced', String(silenced === 'silenced'));
    if (mine) next.set('assignee', 'me');
    const text = next.toString();
    return `/projects/${project.id}/alerts${text ? `?${text}` : ''}`;
  };

  return (
    <section className="page">
      <div className="page-title">
        <h1>Alerts</h1>
        {can(project, 'sendTestAlert') && (
          <Link to={testAlertPath(project.id)} className="button">
            Send test alert
          </Link>
        )}
        {externalLink?.api_url && (
          <div className="external-link">
            <a href={externalLink.api_url} className="button" target="_blank" rel="noreferrer">
              View alerts <span aria-hidden="true">↗</span>
              <span className="visually-hidden"> in the external incident management tool (opens a new tab)</span>
            </a>
            <p className="hint deprecated">
              {externalLink.link_deprecation?.message ?? 'The direct link from the alerts list to the external tool is deprecated from release 13.8.'}
            </p>
          </div>
        )}
      </div>
      <OnCallNow project={project} />
      <TabNav
        label="Alert status"
        tabs={TABS.map((item) => ({
          id: item.id,
          to: tabLink(item.id),
          active: item.id === tab,
          label: (
            <>
              {item.label}{' '}
              <span className="count">{counts.data?.[item.id] ?? '–'}</span>
            </>
          ),
        }))}
      />
      <div className="toolbar toolbar-row">
        <SearchField
          label="Search alerts"
          placeholder="Search title, description, service, monitoring tool or hosts"
          value={search}
          onChange={(text) => {
            setSearch(text);
            setQuery({ search: text.trim(), page: null });
          }}
        />
        <label className="checkbox toolbar-checkbox">
          <input type="checkbox" checked={mine} onChange={(event) => setQuery({ assignee: event.target.checked ? 'me' : null, page: null })} /> Assigned to me
        </label>
        <HiddenLabelSelect
          label="Silenced alerts"
          values={SILENCED_FILTER_VALUES}
          optionLabel={(filter) => SILENCED_FILTERS[filter]}
          value={silenced}
          onChange={(value) => setQuery({ silenced: value === 'any' ? null : String(value === 'silenced'), page: null })}
        />
      </div>
      {canChange && (
        <div className="toolbar bulk-actions">
          <button type="button" className="button" disabled={chosen.length === 0 || bulk.isPending} onClick={acknowledgeSelected}>
            Acknowledge selected{chosen.length > 0 ? ` (${chosen.length})` : ''}
          </button>
        </div>
      )}
      {bulkMessage.view}
      <ErrorMessage error={counts.error} title="Status counts" />
      <ErrorMessage error={alerts.error} />
      {leftTab && leftTab.tab === tab && (
        <div className="notice notice-info" role="status" tabIndex={-1} ref={leftTabNote}>
          Alert #{leftTab.iid} is now {STATUS_LABELS[leftTab.status]}: it left the {TABS.find((item) => item.id === tab)?.label} tab.{' '}
          {TABS.some((item) => item.id === leftTab.status) ? (
            <Link to={tabLink(leftTab.status as AlertTab)}>{STATUS_LABELS[leftTab.status]} alerts</Link>
          ) : (
            <Link to={tabLink('all')}>All alerts</Link>
          )}
        </div>
      )}
      <DataTable
        rows={alerts.data?.items}
        loading={alerts.isPending && 'alerts'}
        empty={<NoAlerts project={project} tab={tab} query={query} silenced={silenced} counts={counts.data} tabLink={tabLink} onAllSilenced={() => setQuery({ silenced: null, page: null })} />}
        columns={[
          canChange && {
            label: (
              <input
                type="checkbox"
                aria-label="Select all alerts shown"
                checked={allSelected}
                onChange={(event) => setSelected(event.target.checked ? shown.map((alert) => alert.iid) : [])}
              />
            ),
            className: 'select',
          },
          'Severity',
          'Start time',
          'Alert',
          { label: 'Events', className: 'numeric' },
          'Assignee',
          'Status',
        ]}
        className="alerts-table"
        scroll
      >
        {(alert) => (
          <AlertRow
            key={alert.iid}
            alert={alert}
            projectId={project.id}
            selected={canChange ? selected.includes(alert.iid) : undefined}
            onSelect={(on) => select(alert.iid, on)}
            onStatusChanged={(status) => onStatusChanged(alert.iid, status)}
          />
        )}
      </DataTable>
      {alerts.data && (
        <Pagination
          page={page}
          total={alerts.data.total}
          perPage={PER_PAGE}
          onPage={(next) => setQuery({ page: next === 1 ? null : String(next) })}
        />
      )}
    </section>
  );
}

interface NoAlertsProps {
  project: Project;
  tab: AlertTab;
  query: string;
  silenced: SilencedFilter;
  counts: AlertStatusCounts | undefined;
  tabLink(tab: AlertTab): string;
  onAllSilenced(): void;
}

/**
 * What an empty list means, said for its case: a search that matched nothing; a project with no
 * integration yet (alerts cannot arrive: how to add one, or whom to ask); or integrations but no
 * alert in this tab (the tabs that have some, and the test alert that checks an integration). The
 * integration list (developer+) is read only here, when the list is empty.
 */
function NoAlerts({ project, tab, query, silenced, counts, tabLink, onAllSilenced }: NoAlertsProps) {
  const integrations = useIntegrations(project.id, !query);
  const tabLabel = TABS.find((item) => item.id === tab)?.label ?? '';
  const which = `${silenced === 'silenced' ? 'silenced ' : silenced === 'not_silenced' ? 'unsilenced ' : ''}${tab === 'all' ? '' : `${tabLabel.toLowerCase()} `}`;
  if (query) {
    return (
      <div className="empty">
        <p>
          No {which}alert matches “{query}”.
        </p>
        {tab !== 'all' && (
          <p>
            <Link to={tabLink('all')}>Search all alerts</Link> for it, or change the search.
          </p>
        )}
      </div>
    );
  }
  // Only an HTTP Endpoint receives alerts (the external link does not).
  const receiving = integrations.data?.filter((integration) => integration.type === 'http');
  if (receiving?.length === 0) {
    return (
      <div className="empty">
        <p>No alerts yet: this project has no integration to receive them.</p>
        {can(project, 'manageIntegrations') ? (
          <p>
            Alerts arrive through an HTTP Endpoint that your monitoring tool sends them to: add one in{' '}
            <Link to={`/projects/${project.id}/settings/alerts`}>Settings › Monitor › Alerts</Link>.
          </p>
        ) : (
          <p>Alerts arrive through an HTTP Endpoint that your monitoring tool sends them to. Ask a maintainer or owner of the project to add one.</p>
        )}
      </div>
    );
  }
  const elsewhere = TABS.filter((item) => item.id !== tab && item.id !== 'all' && (counts?.[item.id] ?? 0) > 0 && !tabHolds(tab, item.id as AlertStatus));
  return (
    <div className="empty">
      <p>
        {tab === 'open' ? `There are no ${which}alerts: none is triggered or acknowledged.` : `There are no ${which}alerts.`}
        {silenced !== 'any' && (
          <>
            {' '}
            <button type="button" className="link-button" onClick={onAllSilenced}>
              Show silenced and unsilenced alerts
            </button>
          </>
        )}
      </p>
      {tab !== 'all' && (counts?.all ?? 0) > 0 && (
        <p>
          See{' '}
          {elsewhere.map((item) => (
            <span key={item.id}>
              <Link to={tabLink(item.id)}>
                {item.label} ({counts?.[item.id]})
              </Link>
              {', '}
            </span>
          ))}
          {elsewhere.length > 0 ? 'or ' : ''}
          <Link to={tabLink('all')}>All alerts ({counts?.all})</Link>.
        </p>
      )}
      {can(project, 'sendTestAlert') && (
        <p>
          To check that an integration works, <Link to={testAlertPath(project.id)}>send a test alert</Link>.
        </p>
      )}
    </div>
  );
}

/** Why "Acknowledge selected" left an alert as it was. */
const SKIP_REASONS: Record<AlertBulkUpdateResult['skipped'][number]['reason'], string> = {
  not_found: 'not found',
  resolved: 'resolved, not reopened',
  unchanged: 'already acknowledged',
};

interface AlertRowProps {
  alert: Alert;
  projectId: number;
  /** Whether its box is ticked; undefined: the caller may not change alerts (no box). */
  selected: boolean | undefined;
  onSelect(on: boolean): void;
  /** Says whether its new status took it out of the tab. */
  onStatusChanged(status: AlertStatus): boolean;
}

/** One alert of the list. */
function AlertRow({ alert, projectId, selected, onSelect, onStatusChanged }: AlertRowProps) {
  return (
    <tr>
      {selected !== undefined && (
        <td className="select">
          <input type="checkbox" aria-label={`Select alert #${alert.iid}`} checked={selected} onChange={(event) => onSelect(event.target.checked)} />
        </td>
      )}
      <td className="severity">
        <SeverityLabel severity={alert.severity} />
      </td>
      <td className="started">
        <TimeAgo iso={alert.started_at} />
      </td>
      <td className="alert-title">
        <Link to={`/projects/${projectId}/alerts/${alert.iid}`}>
          #{alert.iid} {alert.title}
        </Link>
        {alert.silenced_by && (
          <>
            {' '}
            <SilencedBadge projectId={projectId} silence={alert.silenced_by} />
          </>
        )}
      </td>
      <td className="numeric events">{alert.events}</td>
      <td className={alert.assignees.length === 0 ? 'assignee muted' : 'assignee'}>{assigneesText(alert.assignees)}</td>
      <td className="status">
        <AlertStatusControl projectId={projectId} iid={alert.iid} status={alert.status} onChanged={onStatusChanged} />
      </td>
    </tr>
  );
}
