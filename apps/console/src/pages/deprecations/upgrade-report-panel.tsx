import { FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { useUpgradeReport } from '@console/api/queries';
import { ErrorMessage, ErrorNotice, Loading } from '@console/components/error-message';
import { Field } from '@console/components/field';
import { AREA_TITLES, entryLink, kindLabel, MILESTONE } from './deprecation-labels';

/** What is removed or changes after one release up to and including another (GET /deprecations/upgrade_report). */
export function UpgradeReportPanel() {
  const [from, setFrom] = useState('14.10');
  const [to, setTo] = useState('16.0');
  const [range, setRange] = useState<{ from: string; to: string } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const report = useUpgradeReport(range);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!MILESTONE.test(from.trim()) || !MILESTONE.test(to.trim())) {
      setProblem('Give both releases as MAJOR.MINOR, for example 15.9 and 16.0.');
      return;
    }
    setProblem(null);
    setRange({ from: from.trim(), to: to.trim() });
  };
  const changes = report.data?.milestones.reduce((sum, milestone) => sum + milestone.changes.length, 0) ?? 0;

  return (
    <div>
      <form className="filters" onSubmit={submit}>
        <Field label="From release">
          {(id) => <input id={id} value={from} onChange={(event) => setFrom(event.target.value)} inputMode="decimal" placeholder="15.9" />}
        </Field>
        <Field label="To release">
          {(id) => <input id={id} value={to} onChange={(event) => setTo(event.target.value)} inputMode="decimal" placeholder="16.0" />}
        </Field>
        <div className="field field-button">
          <button type="submit" className="button button-primary">
            Show upgrade report
          </button>
        </div>
      </form>
      {problem && <ErrorNotice>{problem}</ErrorNotice>}
      <ErrorMessage error={report.error} />
      {report.isFetching && <Loading what="the upgrade report" />}
      {report.data && (
        <>
          <p role="status">
            From {report.data.from} to {report.data.to}: {changes} {changes === 1 ? 'change' : 'changes'} in {report.data.milestones.length}{' '}
            {report.data.milestones.length === 1 ? 'release' : 'releases'}.
          </p>
          {report.data.milestones.map((milestone) => (
            <section key={milestone.milestone} className="card">
              <h2>Release {milestone.milestone}</h2>
              <ul className="changes">
                {milestone.changes.map((change) => (
                  <li key={`${change.id}:${change.kind}`}>
                    <div className="entry-head">
                      <Link to={entryLink(change.id)}>{change.title}</Link>
                      {change.breaking && <span className="badge badge-breaking">Breaking</span>}
                    </div>
                    <p className="muted small">
                      {kindLabel(change.kind)} · {AREA_TITLES[change.area]}
                      {change.planned_date ? ` · planned ${change.planned_date}` : ''}
                    </p>
                    <p>{change.change}</p>
                    <p>
                      <strong>What to do:</strong> {change.what_to_do}
                    </p>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </>
      )}
    </div>
  );
}
