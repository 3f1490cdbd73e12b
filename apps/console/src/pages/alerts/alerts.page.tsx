import { ReactNode, useEffect, useRef, useState } from 'react';
import { useAssigneeCandidates, useBulkUpdateAlerts, useSetAlertAssignees } from '@console/api/alert-workflow';
import { Link } from 'react-router';
import { useIncidentMutations, useIncidents } from '@console/api/incidents';
import { AlertTab, PER_PAGE, SilencedFilter, useActiveExternalLink, useAlertCounts, useAlerts, useIntegrations } from '@console/api/queries';
import { Alert, AlertBulkUpdateResult, AlertStatus, AlertStatusCounts, Project, SEVERITIES, Severity } from '@console/api/types';
import { DataTable } from '@console/components/data-table';
import { ErrorMessage } from '@console/components/error-message';
import { HiddenLabelSelect } from '@console/components/options';
import { SearchField } from '@console/components/search-field';
import { Pagination } from '@console/components/pagination';
import { SEVERITY_LABELS, SeverityLabel } from '@console/components/severity';
import { ShortcutsHelp } from '@console/components/shortcuts-help';
import { TabNav } from '@console/components/tab-nav';
import { TimeAgo } from '@console/components/time-ago';
import { ALERT_LIST_SHORTCUTS, assigneeFilterOf, assigneeQuery, ListOrder, listOrderOf, newAlertCount, severitiesOf, TriageAction, undoAcknowledgement } from '@console/lib/alert-triage';
import { useListQuery } from '@console/lib/use-list-query';
import { usePageTitle } from '@console/lib/use-page-title';
import { can } from '@console/session/roles';
import { useCurrentProject } from '@console/pages/project-layout';
import { SilencedBadge } from '@console/pages/silences/silence-badge';
import { AssigneeNames } from './alert-assignees';
import { AlertStatusControl, STATUS_LABELS } from './alert-status-control';
import { QuickActions, stateOf, useTriageActions } from './alert-triage-actions';
import { useCurrentMessage } from '@console/components/current-message';
import { testAlertPath } from './send-test-alert.page';
import { OnCallNow } from '@console/pages/oncall/on-call-now';
import { NewAlertNotifications } from './new-alert-notifications';

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

/** The sort choices, each a `sort` and `order` of the API ('' : newest first). */
const SORT_CHOICES: Record<string, string> = {
  '': 'Newest first',
  'severity:desc': 'Most severe first',
  'severity:asc': 'Least severe first',
  'started_at:desc': 'Started latest first',
  'started_at:asc': 'Started earliest first',
  'events:desc': 'Most events first',
  'events:asc': 'Fewest events first',
  'updated_at:desc': 'Changed most recently',
  'updated_at:asc': 'Changed least recently',
};
const SORT_VALUES = Object.keys(SORT_CHOICES);
const sortChoiceOf = (order: ListOrder | null) => (order ? `${order.sort}:${order.order}` : '');
/** The column a sort is by, for its heading's aria-sort. */
const SORTED_COLUMN: Record<ListOrder['sort'], string> = { severity: 'Severity', started_at: 'Start time', events: 'Events', updated_at: '' };

function silencedFilterOf(value: string | null): SilencedFilter {
  return value === 'true' ? 'silenced' : value === 'false' ? 'not_silenced' : 'any';
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

/** Monitor > Alerts: GitLab's alert list (status tabs with counts, search, sort, filters, paging), refreshed while open, triaged from the keyboard. */
export function AlertsPage() {
  const project = useCurrentProject();
  const { params, setQuery, page, paging, tab, tabLink, tabLinks, searchField, query } = useListQuery({ param: 'status', values: TABS.map((item) => item.id), default: 'open' });
  const silenced = silencedFilterOf(params.get('silenced'));
  const assignee = assigneeFilterOf(params.get('assignee'));
  const severities = severitiesOf(params);
  const order = listOrderOf(params);
  const alerts = useAlerts(project.id, tab, query, page, { silenced, assignee: assigneeQuery(assignee), severities, order });
  const canChange = can(project, 'changeAlertStatus');
  const candidates = useAssigneeCandidates(project.id);
  // Rows ticked for the bulk actions (a pager storm handled at once), by iid.
  const [selected, setSelected] = useState<number[]>([]);
  const bulk = useBulkUpdateAlerts(project.id);
  const bulkMessage = useCurrentMessage();
  const triage = useTriageActions(project.id, bulkMessage);
  const shown = alerts.data?.items ?? [];
  // Only rows shown count: a box ticked on another page or tab is not acted on unseen.
  const chosen = selected.filter((iid) => shown.some((alert) => alert.iid === iid));
  const chosenAlerts = shown.filter((alert) => chosen.includes(alert.iid));
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
          const before = new Map(chosenAlerts.map((alert) => [alert.iid, alert]));
          triage.sayDone(
            `Acknowledged ${result.updated.length} ${result.updated.length === 1 ? 'alert' : 'alerts'}${skipped ? `; left as they were: ${skipped}` : ''}.`,
            result.updated.flatMap((iid) => {
              const alert = before.get(iid);
              return alert ? [{ iid, steps: undoAcknowledgement(stateOf(alert)) }] : [];
            }),
          );
        },
        onError: (error) => bulkMessage.error(error, 'Not acknowledged'),
      },
    );
  };
  const counts = useAlertCounts(project.id);
  const externalLink = useActiveExternalLink(project.id, can(project, 'manageIntegrations'));
  const newCount = useNewAlertCount(shown.map((alert) => alert.iid));
  usePageTitle(newCount > 0 ? `(${newCount}) Alerts` : 'Alerts', project.path);
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

  // The row j and k mark (its link takes the focus, so Enter opens it); x ticks it; a, r and m act
  // on the ticked rows, or else on the marked one.
  const [marked, setMarked] = useState<number | null>(null);
  const table = useRef<HTMLDivElement>(null);
  const mark = (step: number) => {
    if (shown.length === 0) return;
    const index = shown.findIndex((alert) => alert.iid === marked);
    const next = shown[index === -1 ? (step > 0 ? 0 : shown.length - 1) : Math.min(shown.length - 1, Math.max(0, index + step))];
    setMarked(next.iid);
    table.current?.querySelector<HTMLElement>(`[data-iid="${next.iid}"] .alert-title a`)?.focus();
  };
  const markedAlert = shown.find((alert) => alert.iid === marked);
  const actOnKeys = (action: TriageAction) => () => {
    const targets = chosenAlerts.length > 0 ? chosenAlerts : markedAlert ? [markedAlert] : [];
    if (targets.length > 0 && canChange) void triage.act(targets, action);
  };
  const shortcuts = {
    j: () => mark(1),
    k: () => mark(-1),
    x: () => markedAlert && canChange && select(markedAlert.iid, !selected.includes(markedAlert.iid)),
    a: actOnKeys('acknowledge'),
    r: actOnKeys('resolve'),
    m: actOnKeys('assign'),
  };

  const usernames = (candidates.data ?? []).map((candidate) => candidate.username);
  const assigneeValue = assignee.kind === 'user' ? assignee.username : assignee.kind === 'any' ? '' : assignee.kind;
  const assigneeValues = ['', 'me', 'none', ...usernames.filter((username) => username !== 'me' && username !== 'none')];
  if (assignee.kind === 'user' && !assigneeValues.includes(assignee.username)) assigneeValues.push(assignee.username);
  const toggleSeverity = (severity: Severity, on: boolean) => {
    const next = SEVERITIES.filter((item) => (item === severity ? on : severities.includes(item)));
    setQuery({ severity: next.join(','), page: null });
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
      <TabNav label="Alert status" tabs={tabLinks(TABS, counts.data ?? null)} />
      <div className="toolbar toolbar-row">
        <SearchField label="Search alerts" placeholder="Search title, description, service, monitoring tool or hosts" {...searchField} />
        <label className="toolbar-field">
          <span>Sort</span>
          <select
            value={sortChoiceOf(order)}
            title={SORT_CHOICES[sortChoiceOf(order)]}
            onChange={(event) => {
              const [sort, direction] = event.target.value.split(':');
              setQuery({ sort: sort ?? null, order: direction ?? null, page: null });
            }}
          >
            {SORT_VALUES.map((value) => (
              <option key={value} value={value}>
                {SORT_CHOICES[value]}
              </option>
            ))}
          </select>
        </label>
        <label className="toolbar-field">
          <span>Assignee</span>
          <select
            className="assignee-filter"
            value={assigneeValue}
            title={assigneeLabel(assigneeValue)}
            onChange={(event) => setQuery({ assignee: event.target.value, page: null })}
          >
            {assigneeValues.map((value) => (
              <option key={value} value={value} title={assigneeLabel(value)}>
                {assigneeLabel(value)}
              </option>
            ))}
          </select>
        </label>
        <HiddenLabelSelect
          label="Silenced alerts"
          values={SILENCED_FILTER_VALUES}
          optionLabel={(filter) => SILENCED_FILTERS[filter]}
          value={silenced}
          onChange={(value) => setQuery({ silenced: value === 'any' ? null : String(value === 'silenced'), page: null })}
        />
        <fieldset className="severity-filter">
          <legend>Severity</legend>
          {SEVERITIES.map((severity) => (
            <label key={severity} className="checkbox">
              <input type="checkbox" checked={severities.includes(severity)} onChange={(event) => toggleSeverity(severity, event.target.checked)} /> {SEVERITY_LABELS[severity]}
            </label>
          ))}
        </fieldset>
        <NewAlertNotifications iids={shown.map((alert) => alert.iid)} titles={new Map(shown.map((alert) => [alert.iid, alert.title]))} />
        <ShortcutsHelp shortcuts={ALERT_LIST_SHORTCUTS} handlers={shortcuts} />
      </div>
      {canChange && (
        <BulkActions
          projectId={project.id}
          chosen={chosenAlerts}
          usernames={candidates.data ?? []}
          busy={bulk.isPending || triage.busy}
          canAssignMe={triage.me !== null}
          onAcknowledge={acknowledgeSelected}
          onAct={(action) => void triage.act(chosenAlerts, action)}
          message={bulkMessage}
          onDone={() => setSelected([])}
        />
      )}
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
      <div ref={table}>
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
            ...(['Severity', 'Start time'] as const).map((label) => sortedHeading(label, order)),
            { label: 'Alert', className: 'alert-title' },
            sortedHeading('Events', order, 'numeric'),
            { label: 'Assignee', className: 'assignee' },
            { label: 'Status', className: 'status' },
            canChange && { label: 'Actions', className: 'alert-actions' },
          ]}
          className="alerts-table"
        >
          {(alert) => (
            <AlertRow
              key={alert.iid}
              alert={alert}
              projectId={project.id}
              marked={alert.iid === marked}
              selected={canChange ? selected.includes(alert.iid) : undefined}
              onSelect={(on) => select(alert.iid, on)}
              onStatusChanged={(status) => onStatusChanged(alert.iid, status)}
              actions={canChange && <QuickActions alert={alert} me={triage.me} busy={triage.busy} inRow onAct={(action) => void triage.act([alert], action)} />}
            />
          )}
        </DataTable>
      </div>
      {alerts.data && (
        <Pagination {...paging} total={alerts.data.total} perPage={PER_PAGE} />
      )}
    </section>
  );
}

/** The assignee filter's choices in words. */
function assigneeLabel(value: string): string {
  if (value === '') return 'Anyone';
  if (value === 'me') return 'Assigned to me';
  if (value === 'none') return 'Unassigned';
  return `@${value}`;
}

/** A sortable column's heading: `aria-sort` says how the list is sorted by it. */
function sortedHeading(label: string, order: ListOrder | null, className = '') {
  const sorted = order && SORTED_COLUMN[order.sort] === label;
  // Most severe first is the severities' ascending order (critical, high, ...).
  const direction: 'ascending' | 'descending' =
    order?.sort === 'severity' ? (order.order === 'desc' ? 'ascending' : 'descending') : order?.order === 'asc' ? 'ascending' : 'descending';
  return { label, className: `${className} ${label === 'Severity' ? 'severity' : label === 'Start time' ? 'started' : 'events'}`.trim(), sort: sorted ? direction : undefined };
}

/**
 * New alerts counted in the tab's title until seen: those above the newest iid shown while the
 * browser tab was in front and focused (seen again as soon as it is).
 */
function useNewAlertCount(iids: readonly number[]): number {
  const [newestSeen, setNewestSeen] = useState<number | null>(null);
  const newest = iids.length > 0 ? Math.max(...iids) : null;
  // The first list read counts as seen.
  if (newestSeen === null && newest !== null) setNewestSeen(newest);
  useEffect(() => {
    const see = () => {
      if (document.visibilityState === 'visible' && document.hasFocus() && newest !== null) setNewestSeen((seen) => Math.max(seen ?? 0, newest));
    };
    see();
    window.addEventListener('focus', see);
    document.addEventListener('visibilitychange', see);
    return () => {
      window.removeEventListener('focus', see);
      document.removeEventListener('visibilitychange', see);
    };
  }, [newest]);
  return newAlertCount(iids, newestSeen);
}

interface BulkActionsProps {
  projectId: number;
  chosen: readonly Alert[];
  usernames: ReadonlyArray<{ id: number; username: string }>;
  busy: boolean;
  /** The caller is a user (the administrator token is nobody to assign). */
  canAssignMe: boolean;
  onAcknowledge(): void;
  onAct(action: TriageAction): void;
  message: ReturnType<typeof useCurrentMessage>;
  onDone(): void;
}

/**
 * The ticked alerts' actions, on a bar that stays on screen while the list scrolls: acknowledge,
 * resolve, assign (to me, or a member chosen), link to an open incident; each says what it did.
 */
function BulkActions({ projectId, chosen, usernames, busy, canAssignMe, onAcknowledge, onAct, message, onDone }: BulkActionsProps) {
  const count = chosen.length;
  const none = count === 0 || busy;
  const suffix = count > 0 ? ` (${count})` : '';
  const [member, setMember] = useState('');
  const [incident, setIncident] = useState('');
  const incidents = useIncidents(projectId, 'open', '', 1);
  const { link } = useIncidentMutations(projectId);
  const setAssignees = useSetAlertAssignees(projectId);
  const memberIds = new Map(usernames.map((candidate) => [String(candidate.id), candidate.username]));
  const incidentTitles = new Map((incidents.data?.items ?? []).map((item) => [String(item.iid), `#${item.iid} ${item.title}`]));
  const assignMember = () => {
    if (member === '') return;
    message.clear();
    // Each alert keeps its assignees and gains the member.
    Promise.all(
      chosen.map((alert) => setAssignees.mutateAsync({ iid: alert.iid, assigneeIds: [...new Set([...alert.assignees.map((assignee) => assignee.id), Number(member)])] })),
    ).then(
      () => {
        message.success(`Assigned ${count === 1 ? `alert #${chosen[0].iid}` : `${count} alerts`} to @${memberIds.get(member)}.`);
        onDone();
      },
      (error: unknown) => message.error(error, 'Not assigned'),
    );
  };
  const linkChosen = () => {
    if (incident === '') return;
    message.clear();
    const toLink = chosen.filter((alert) => alert.incident_iid === null);
    Promise.all(toLink.map((alert) => link.mutateAsync({ iid: Number(incident), alertIid: alert.iid }))).then(
      () => {
        const already = chosen.filter((alert) => alert.incident_iid !== null).map((alert) => `#${alert.iid}`);
        message.success(
          <>
            Linked {toLink.length} {toLink.length === 1 ? 'alert' : 'alerts'} to <Link to={`/projects/${projectId}/incidents/${incident}`}>incident #{incident}</Link>
            {already.length > 0 ? `; already in an incident: ${already.join(', ')}` : ''}.
          </>,
        );
        onDone();
      },
      (error: unknown) => message.error(error, 'Not linked'),
    );
  };
  return (
    <div className={count === 0 ? 'bulk-bar bulk-bar-idle' : 'bulk-bar'} role="region" aria-label="Selected alerts">
      <div className="toolbar bulk-actions">
        <span className="bulk-count">{count === 0 ? 'Select alerts to act on several at once.' : `${count} selected`}</span>
        <button type="button" className="button" disabled={none} onClick={onAcknowledge}>
          Acknowledge selected{suffix}
        </button>
        <button type="button" className="button" disabled={none} onClick={() => onAct('resolve')}>
          Resolve selected{suffix}
        </button>
        {canAssignMe && (
          <button type="button" className="button" disabled={none} onClick={() => onAct('assign')}>
            Assign selected to me
          </button>
        )}
        <span className="bulk-choice">
          <HiddenLabelSelect
            label="Member to assign the selected alerts to"
            values={['', ...memberIds.keys()]}
            optionLabel={(value) => (value === '' ? 'Choose a member' : `@${memberIds.get(value) ?? value}`)}
            value={member}
            className="bulk-select"
            onChange={setMember}
          />
          <button type="button" className="button" disabled={none || member === ''} onClick={assignMember}>
            Assign selected
          </button>
        </span>
        <span className="bulk-choice">
          <HiddenLabelSelect
            label="Open incident to link the selected alerts to"
            values={['', ...incidentTitles.keys()]}
            optionLabel={(value) => (value === '' ? (incidentTitles.size === 0 ? 'No open incident' : 'Choose an open incident') : (incidentTitles.get(value) ?? value))}
            value={incident}
            className="bulk-select"
            onChange={setIncident}
          />
          <button type="button" className="button" disabled={none || incident === ''} onClick={linkChosen}>
            Link to incident
          </button>
        </span>
      </div>
      {message.view}
    </div>
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
  /** Marked by j and k (the keyboard's current row). */
  marked: boolean;
  /** Whether its box is ticked; undefined: the caller may not change alerts (no box). */
  selected: boolean | undefined;
  onSelect(on: boolean): void;
  /** Says whether its new status took it out of the tab. */
  onStatusChanged(status: AlertStatus): boolean;
  /** Its one-click actions (developer+). */
  actions: ReactNode;
}

/** One alert of the list: every long text wraps or is cut with the whole of it on hover. */
function AlertRow({ alert, projectId, marked, selected, onSelect, onStatusChanged, actions }: AlertRowProps) {
  const title = `#${alert.iid} ${alert.title}`;
  return (
    <tr data-iid={alert.iid} className={marked ? 'row-marked' : undefined}>
      {selected !== undefined && (
        <td className="select">
          <input type="checkbox" aria-label={`Select alert #${alert.iid}`} checked={selected} onChange={(event) => onSelect(event.target.checked)} />
        </td>
      )}
      <td className="severity">
        <SeverityLabel severity={alert.severity} />
      </td>
      <td className="started">
        <TimeAgo iso={alert.started_at} compact />
      </td>
      <td className="alert-title">
        <Link to={`/projects/${projectId}/alerts/${alert.iid}`} title={title}>
          {title}
        </Link>
        {alert.silenced_by && (
          <>
            {' '}
            <SilencedBadge projectId={projectId} silence={alert.silenced_by} />
          </>
        )}
        {alert.hosts.length > 0 && (
          <div className="alert-hosts muted" title={alert.hosts.join(', ')}>
            {alert.hosts.join(', ')}
          </div>
        )}
      </td>
      <td className="numeric events">{alert.events}</td>
      <td className={alert.assignees.length === 0 ? 'assignee muted' : 'assignee'}>
        <AssigneeNames assignees={alert.assignees} />
      </td>
      <td className="status">
        <AlertStatusControl projectId={projectId} iid={alert.iid} status={alert.status} onChanged={onStatusChanged} />
      </td>
      {actions !== false && <td className="alert-actions">{actions}</td>}
    </tr>
  );
}
