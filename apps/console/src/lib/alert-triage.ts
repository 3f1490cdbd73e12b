import { AlertStatus, SEVERITIES, Severity } from '@console/api/types';

// The pure rules of triage on the Alerts list and an alert's page: the sort and filters kept in the
// address, what a one-click action may do and how it is undone, the keyboard shortcuts and when they
// stay quiet, and how many assignees a row shows.

/** What the list is sorted by: the API's `sort` (docs/api-guide.md "List alerts"). */
export const LIST_SORTS = ['severity', 'started_at', 'events', 'updated_at'] as const;
export type ListSort = (typeof LIST_SORTS)[number];
export type SortOrder = 'asc' | 'desc';

export interface ListOrder {
  sort: ListSort;
  order: SortOrder;
}

/** `?sort=severity&order=desc` as the list's order; null (newest first) for none or a value the API would refuse. */
export function listOrderOf(params: URLSearchParams): ListOrder | null {
  const sort = params.get('sort');
  if (!LIST_SORTS.includes(sort as ListSort)) return null;
  return { sort: sort as ListSort, order: params.get('order') === 'asc' ? 'asc' : 'desc' };
}

/** `?severity=critical,high` as the severities chosen, in the API's order (unknown values dropped). */
export function severitiesOf(params: URLSearchParams): Severity[] {
  const chosen = (params.get('severity') ?? '').split(',');
  return SEVERITIES.filter((severity) => chosen.includes(severity));
}

/** The assignee filter: anyone, the caller, nobody, or a member by username (`?assignee=me|none|<username>`). */
export type AssigneeFilter = { kind: 'any' } | { kind: 'me' } | { kind: 'none' } | { kind: 'user'; username: string };

export function assigneeFilterOf(value: string | null): AssigneeFilter {
  if (!value) return { kind: 'any' };
  if (value === 'me' || value === 'none') return { kind: value };
  return { kind: 'user', username: value };
}

/** The list query's parameters for an assignee filter. */
export function assigneeQuery(filter: AssigneeFilter): { assignee_id?: 'me' | 'none'; assignee_username?: string } {
  if (filter.kind === 'me' || filter.kind === 'none') return { assignee_id: filter.kind };
  if (filter.kind === 'user') return { assignee_username: filter.username };
  return {};
}

/** An alert's state a one-click action changes, and its undo restores. */
export interface TriageState {
  status: AlertStatus;
  assigneeIds: readonly number[];
}

export type TriageAction = 'acknowledge' | 'resolve' | 'assign';

/** Whether the action changes anything: acknowledge a triggered alert, resolve one not resolved, assign one not assigned to `me`. */
export function actionApplies(action: TriageAction, state: TriageState, me: number | null): boolean {
  if (action === 'acknowledge') return state.status === 'triggered';
  if (action === 'resolve') return state.status !== 'resolved';
  return me !== null && !state.assigneeIds.includes(me);
}

/** One call of an undo: a status to set, or the assignees to put back. */
export type UndoStep = { status: AlertStatus } | { assigneeIds: number[] };

/**
 * How to put an alert back as it was `before` an action left it `after`: the status first, by the
 * steps the API allows (a resolved alert reopens only to triggered, so resolved → acknowledged is
 * triggered then acknowledged), then the assignees (acknowledging assigns the acknowledger when
 * nobody was). Empty: nothing changed, nothing to undo.
 */
export function undoSteps(before: TriageState, after: TriageState): UndoStep[] {
  const steps: UndoStep[] = [];
  if (before.status !== after.status) {
    if (after.status === 'resolved' && before.status !== 'triggered') steps.push({ status: 'triggered' });
    steps.push({ status: before.status });
  }
  const assigneesChanged = before.assigneeIds.length !== after.assigneeIds.length || before.assigneeIds.some((id) => !after.assigneeIds.includes(id));
  // Acknowledging again assigns the acknowledger when nobody is assigned: the assignees go back after it.
  const reacknowledges = before.assigneeIds.length === 0 && steps.some((step) => 'status' in step && step.status === 'acknowledged');
  if (assigneesChanged || reacknowledges) steps.push({ assigneeIds: [...before.assigneeIds] });
  return steps;
}

/**
 * How to put back an alert the bulk acknowledgement changed (one call for them all, which answers
 * only which alerts it changed): its status before, then its assignees before, since acknowledging
 * assigns the acknowledger when nobody was.
 */
export function undoAcknowledgement(before: TriageState): UndoStep[] {
  return [{ status: before.status }, { assigneeIds: [...before.assigneeIds] }];
}

/** Whether a key press is typing (an input, textarea, select or contenteditable has it): shortcuts stay quiet. */
export function isTyping(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false;
  const element = target as HTMLElement;
  if (element.isContentEditable) return true;
  return element.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]') !== null;
}

/** A key press a shortcut may answer: no modifier but Shift, not while typing, not already handled. */
export function shortcutKey(event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean; target: EventTarget | null; defaultPrevented: boolean }): string | null {
  if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return null;
  return event.key;
}

export interface Shortcut {
  key: string;
  does: string;
}

export const ALERT_PAGE_SHORTCUTS: readonly Shortcut[] = [
  { key: 'a', does: 'Acknowledge the alert' },
  { key: 'r', does: 'Resolve the alert' },
  { key: 'm', does: 'Assign the alert to me' },
  { key: 'i', does: 'View its incident' },
  { key: '?', does: 'Show these shortcuts' },
];

export const ALERT_LIST_SHORTCUTS: readonly Shortcut[] = [
  { key: 'j', does: 'Next alert' },
  { key: 'k', does: 'Previous alert' },
  { key: 'x', does: 'Select or unselect the alert' },
  { key: 'a', does: 'Acknowledge the selected alerts, or else the alert marked' },
  { key: 'r', does: 'Resolve the selected alerts, or the alert marked' },
  { key: 'm', does: 'Assign the selected alerts, or the alert marked, to me' },
  { key: 'Enter', does: 'Open the alert marked (its link has the focus)' },
  { key: '?', does: 'Show these shortcuts' },
];

/** The assignees a row shows (at most `max`), and how many more the "+N" stands for. */
export function assigneesShown<T>(assignees: readonly T[], max = 3): { shown: T[]; more: number } {
  return { shown: assignees.slice(0, max), more: Math.max(0, assignees.length - max) };
}

/** How many alerts of the list arrived after the newest one seen (iids grow with creation). */
export function newAlertCount(iids: readonly number[], newestSeen: number | null): number {
  if (newestSeen === null) return 0;
  return iids.filter((iid) => iid > newestSeen).length;
}
