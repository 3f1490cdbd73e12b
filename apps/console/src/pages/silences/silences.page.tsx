import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { PER_PAGE, useSilenceMutations, useSilences } from '@console/api/queries';
import { Silence, SilenceState } from '@console/api/types';
import { ConfirmDialog } from '@console/components/confirm-dialog';
import { DataTable } from '@console/components/data-table';
import { ErrorMessage } from '@console/components/error-message';
import { Pagination } from '@console/components/pagination';
import { TabNav } from '@console/components/tab-nav';
import { TimeAgo } from '@console/components/time-ago';
import { describeMatcher, utcMinute } from '@console/lib/silence-form';
import { useCurrentMessage } from '@console/components/current-message';
import { useListQuery } from '@console/lib/use-list-query';
import { usePageTitle } from '@console/lib/use-page-title';
import { can } from '@console/session/roles';
import { useCurrentProject } from '@console/pages/project-layout';
import { SILENCE_STATE_LABELS, SilenceStateBadge } from './silence-badge';

type StateTab = SilenceState | 'all';

/** The tabs in the order shown. */
const TABS: readonly StateTab[] = ['active', 'pending', 'expired', 'all'];

export function newSilencePath(projectId: number, fromAlert?: number): string {
  return `/projects/${projectId}/silences/new${fromAlert === undefined ? '' : `?alert=${fromAlert}`}`;
}

/**
 * Monitor > Silences: maintenance windows as Alertmanager shows them (state tabs, matchers, window,
 * comment, creator); maintainers create, edit and expire them. Expired silences stay listed.
 */
export function SilencesPage() {
  const project = useCurrentProject();
  const { tab, tabLinks, page, paging } = useListQuery({ param: 'state', values: TABS, default: 'active' });
  const silences = useSilences(project.id, tab, page);
  const { expire } = useSilenceMutations(project.id);
  const [expiring, setExpiring] = useState<Silence | null>(null);
  const manage = can(project, 'manageSilences');
  usePageTitle('Silences', project.path);
  const message = useCurrentMessage();
  // The form says what it saved here, once: the list is where the silence is.
  const location = useLocation();
  const navigate = useNavigate();
  const saved = (location.state as { message?: string } | null)?.message;
  useEffect(() => {
    if (!saved) return;
    message.success(saved);
    navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: null });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [saved]);

  return (
    <section className="page">
      <div className="page-title">
        <h1>Silences</h1>
        {manage && (
          <Link to={newSilencePath(project.id)} className="button button-primary">
            New silence
          </Link>
        )}
      </div>
      <p className="muted">
        Alerts that match every matcher of an active silence are stored and grouped as usual, and marked silenced so that paging can skip them.
      </p>
      <TabNav
        label="Silence state"
        tabs={tabLinks(TABS.map((id) => ({ id, label: id === 'all' ? 'All' : SILENCE_STATE_LABELS[id] })))}
      />
      {message.view}
      <ErrorMessage error={silences.error} />
      <DataTable
        rows={silences.data?.items}
        loading={silences.isPending && 'silences'}
        empty={tab === 'all' ? 'No silences yet.' : `No ${SILENCE_STATE_LABELS[tab].toLowerCase()} silences.`}
        columns={['State', 'Matchers', 'Starts (UTC)', 'Ends (UTC)', 'Comment', 'Created by', manage && <span className="visually-hidden">Actions</span>]}
        className="silences-table"
        scroll
      >
        {(silence) => (
          <tr key={silence.id}>
            <td>
              <SilenceStateBadge state={silence.state} />
            </td>
            <td>
              <ul className="matchers">
                {silence.matchers.map((matcher, index) => (
                  <li key={index}>
                    <code>{describeMatcher(matcher)}</code>
                  </li>
                ))}
              </ul>
            </td>
            <td data-label="Starts (UTC)">
              {utcMinute(silence.starts_at)}
              <div className="muted small">
                <TimeAgo iso={silence.starts_at} />
              </div>
            </td>
            <td data-label="Ends (UTC)">
              {utcMinute(silence.ends_at)}
              <div className="muted small">
                <TimeAgo iso={silence.ends_at} />
              </div>
            </td>
            <td className="wrap">{silence.comment}</td>
            <td data-label="Created by">{silence.created_by?.username ?? <span className="muted">administrator</span>}</td>
            {manage && (
              <td>
                {silence.state !== 'expired' && (
                  <div className="row-actions">
                    <Link to={`/projects/${project.id}/silences/${silence.id}/edit`} className="button button-small">
                      Edit<span className="visually-hidden"> silence {silence.id}</span>
                    </Link>
                    <button type="button" className="button button-small button-danger-outline" onClick={() => setExpiring(silence)}>
                      Expire<span className="visually-hidden"> silence {silence.id}</span>
                    </button>
                  </div>
                )}
              </td>
            )}
          </tr>
        )}
      </DataTable>
      {silences.data && (
        <Pagination {...paging} total={silences.data.total} perPage={PER_PAGE} />
      )}
      <ConfirmDialog
        open={expiring !== null}
        title="Expire this silence?"
        confirmLabel="Expire silence"
        danger
        busy={expire.isPending}
        onCancel={() => setExpiring(null)}
        onConfirm={() =>
          expiring &&
          expire.mutate(expiring.id, {
            onSuccess: (ended) => message.success(`Silence ${ended.id} expired at ${utcMinute(ended.ends_at)}: alerts that arrive from now on are not silenced by it.`),
            onError: (error) => message.error(error, `Silence ${expiring.id} not expired`),
            onSettled: () => setExpiring(null),
          })
        }
      >
        <p>It ends now: alerts that arrive from now on are no longer silenced. It stays listed under Expired.</p>
      </ConfirmDialog>
    </section>
  );
}
