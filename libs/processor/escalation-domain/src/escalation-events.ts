import { AcceptedCommand, ActivityEntryOut } from '@alert-ingestion/alerts-domain';
import { AlertEvent, AlertSilence, AlertStatus, EscalationCondition } from '@alert-ingestion/contracts';
import { alertEventId, silenceReason } from '@alert-ingestion/workflow-domain';
import { EscalationPolicy } from './escalation-policy';
import { EscalationClock, nextPagingStep, StepRef, stepDueAt } from './escalation-steps';
import { EscalationEnd, NewPage, pageIdempotencyKey, PageNotice, StoredEscalation, StoredEscalationState, StoredPage } from './stored-escalation';

// How alert events start and stop escalations (the escalation consumer of alerts.events.v1, as one
// command per chunk): a new triggered alert starts its project's policy (a silenced one pages nobody,
// and its timeline says so); acknowledging stops the "not acknowledged" rules, resolving (or
// ignoring) stops all; triggering again after that starts over from the first rule. Pure.

/** An alert event as escalations read it. */
export type EscalatedEvent = Pick<AlertEvent.AlertEventValue, 'type' | 'occurred_at' | 'project_id' | 'cause'> & {
  alert: { iid: number; status: AlertStatus; silenced_by: AlertSilence | null };
};

/** Whether an event can start or stop an escalation: a new alert or a change of status (not a grouped repeat, not an assignment). */
export function escalationMayAct(event: Pick<AlertEvent.AlertEventValue, 'type'>): boolean {
  return event.type === 'alert.created' || event.type === 'alert.status_changed' || event.type === 'alert.resolved';
}

/** A sent page as a notice reads it: who was paged, and how. */
export type PagedRecipient = Pick<StoredPage, 'userId' | 'username' | 'method' | 'address' | 'contactMethodId'>;

/** What a chunk of events is decided on, read (and the escalations locked) by the data layer. */
export interface EscalationEventState {
  /** Each project's policy, and since when it is in force: it escalates alerts triggered from then on. */
  policies: ReadonlyMap<string, { policy: EscalationPolicy; since: number }>;
  /** The latest run of each alert of the chunk that has one, by alertKey. */
  escalations: ReadonlyMap<string, StoredEscalation>;
  /** The events that started a run already (a chunk delivered again starts nothing twice). */
  startedBy: ReadonlySet<string>;
  /** The recipients of each run's sent pages, by escalation id: who gets a notice. */
  paged: ReadonlyMap<string, readonly PagedRecipient[]>;
  /** The users who asked for notices (status_notices). */
  noticeUsers: ReadonlySet<string>;
  /** Usernames of the users whose changes the events report. */
  usernames: ReadonlyMap<string, string>;
}

/** A run to start, on the alert of `alertIid` (the data layer finds its id). */
export interface NewEscalation extends Omit<StoredEscalation, 'id' | 'alertId'> {
  /** The run it replaces, if that one started in the same chunk (it ends before this one begins). */
  replacing?: NewEscalation;
}

export interface EscalationUpdate {
  id: string;
  state: StoredEscalationState;
  nextStep: StepRef | null;
  nextDueAt: number | null;
  endedAt: number | null;
  endedReason: string | null;
}

/** Pending pages of a run that no longer go: of these conditions (a notice is never cancelled). */
export interface PageCancellation {
  escalationId: string;
  conditions: EscalationCondition[];
  reason: string;
}

export interface EscalationEventChanges {
  starts: NewEscalation[];
  updates: EscalationUpdate[];
  cancellations: PageCancellation[];
  notices: NewPage[];
}

/** An alert's key in a chunk: `<project_id>:<iid>`. */
export function alertKey(projectId: string, iid: number): string {
  return `${projectId}:${iid}`;
}

/** Who made a change, in words, for a notice and the timeline: `@jane`, `the administrator`, `a recovery payload`. */
export function changedBy(cause: AlertEvent.AlertEventCause | undefined, usernames: ReadonlyMap<string, string>): string {
  switch (cause?.type) {
    case 'user':
      return cause.user_id == null ? 'the administrator' : `@${usernames.get(String(cause.user_id)) ?? `user ${cause.user_id}`}`;
    case 'payload':
      return 'a recovery payload';
    case 'incident':
      return `closing incident #${cause.incident_iid}`;
    case 'heartbeat':
      return 'the heartbeat';
    default:
      return 'someone';
  }
}

/** A run's state in the chunk: as stored (with its id), or started by an earlier event of the chunk. */
type Current = { stored: StoredEscalation; update?: EscalationUpdate } | { started: NewEscalation };

function currentRun(current: Current): Pick<StoredEscalation, 'run' | 'policy' | 'state' | 'nextStep' | 'startedAt'> {
  return 'started' in current ? current.started : { ...current.stored, ...current.update };
}

/**
 * Plans what a chunk of alert events does to escalations, event by event in order (an alert
 * created and acknowledged in one chunk starts and stops in it):
 * - `alert.created` of a triggered alert in a project whose policy was in force then starts run 1
 *   with that policy (kept with the run), its first step due at the first rule's minutes; a silenced
 *   alert gets a skipped run and a timeline entry instead;
 * - a status of `acknowledged` leaves only the "not resolved" rules (none: the run ends), cancels the
 *   pending "not acknowledged" pages, and sends notices to those paged who asked for them;
 * - `resolved` or `ignored` ends the run and cancels its pending pages (notices for `resolved`);
 * - `triggered` again (after an acknowledgement, a resolution or an ignore) ends the run and starts
 *   the next from the first rule, with the project's policy as it is then.
 * Each event starts a run once however often it is delivered; a stop or a notice is idempotent.
 */
export function planEscalationEvents(
  events: readonly EscalatedEvent[],
  state: EscalationEventState,
  clock: EscalationClock,
  now: Date,
): AcceptedCommand<EscalationEventChanges> {
  const changes: EscalationEventChanges = { starts: [], updates: [], cancellations: [], notices: [] };
  const activity: ActivityEntryOut[] = [];
  const runs = new Map<string, Current>();
  for (const [key, stored] of state.escalations) runs.set(key, { stored });

  const entry = (event: EscalatedEvent, kind: ActivityEntryOut['kind'], reason: string, details: ActivityEntryOut['details']): void => {
    activity.push({ projectId: String(event.project_id), subject: { alertIid: event.alert.iid }, kind, actorUserId: null, source: 'escalation', reason, details, at: now });
  };

  const start = (event: EscalatedEvent, key: string, previous: Current | undefined): void => {
    const projectId = String(event.project_id);
    const eventId = alertEventId(event);
    const startedAt = Date.parse(event.occurred_at);
    const found = state.policies.get(projectId);
    if (!found || found.since > startedAt || state.startedBy.has(eventId)) return;
    const run = previous ? currentRun(previous).run + 1 : 1;
    const base = { projectId, alertIid: event.alert.iid, run, startedAt, startedByEvent: eventId, policy: found.policy, endedAt: null };
    let started: NewEscalation;
    if (event.alert.silenced_by) {
      const reason = silenceReason(event.alert.silenced_by, 'nobody was paged');
      started = { ...base, state: 'skipped', nextStep: null, nextDueAt: null, endedAt: now.getTime(), endedReason: reason };
      entry(event, 'escalation_skipped', reason, { run, silence_id: event.alert.silenced_by.id });
    } else {
      const first = nextPagingStep(found.policy, { loop: 0, rule: 0 }, 'triggered');
      started = { ...base, state: 'running', nextStep: first, nextDueAt: first && stepDueAt(found.policy, startedAt, first, clock), endedReason: null };
      entry(event, 'escalation_started', `The escalation policy pages from now on until the alert is acknowledged or resolved (${found.policy.rules.length} ${found.policy.rules.length === 1 ? 'rule' : 'rules'}, repeated ${found.policy.repeat} ${found.policy.repeat === 1 ? 'time' : 'times'}).`, {
        run,
        rules: found.policy.rules.length,
        repeat: found.policy.repeat,
      });
    }
    if (previous && 'started' in previous) started.replacing = previous.started;
    changes.starts.push(started);
    runs.set(key, { started });
  };

  /**
   * Moves the run to its state after the event (a new next step, or its end) unless it is there
   * already, and gives those it paged their notices (a run that paged its last loop still does).
   */
  const stop = (event: EscalatedEvent, current: Current, status: AlertStatus, end: EscalationEnd): void => {
    const run = currentRun(current);
    if (run.state === 'skipped') return;
    const by = changedBy(event.cause, state.usernames);
    const nextStep = status === 'acknowledged' ? nextPagingStep(run.policy, run.nextStep, status) : null;
    const ended = nextStep === null;
    const moves = run.state === 'running' || (run.state === 'acknowledged' && ended);
    if (moves) {
      const after = {
        state: (ended ? 'ended' : 'acknowledged') as StoredEscalationState,
        nextStep,
        nextDueAt: nextStep && stepDueAt(run.policy, run.startedAt, nextStep, clock),
        endedAt: ended ? now.getTime() : null,
        endedReason: ended ? end : null,
      };
      const left = ended ? 'nothing more is paged' : 'its "if not resolved" rules go on';
      entry(event, 'escalation_stopped', end === 'retriggered' ? 'Triggered again: the escalation starts over from its first rule.' : `${capitalised(end)} by ${by}: ${left}.`, {
        run: run.run,
        stopped: end,
      });
      if ('started' in current) Object.assign(current.started, after);
      else {
        current.update = { id: current.stored.id, ...after };
        changes.cancellations.push({
          escalationId: current.stored.id,
          conditions: ended ? ['not_acknowledged', 'not_resolved'] : ['not_acknowledged'],
          reason: end === 'retriggered' ? 'The alert was triggered again: the escalation started over.' : `The alert was ${end} by ${by} before the page went.`,
        });
      }
    }
    if ('stored' in current && (end === 'acknowledged' || end === 'resolved')) changes.notices.push(...notices(event, current.stored, { of: end, by }, state));
  };

  for (const event of events) {
    if (!escalationMayAct(event)) continue;
    const key = alertKey(String(event.project_id), event.alert.iid);
    const current = runs.get(key);
    const status = event.alert.status;
    if (event.type === 'alert.created') {
      if (status === 'triggered' && !current) start(event, key, undefined);
      continue;
    }
    if (!current) {
      // An alert the policy never escalated: triggered again, it starts (the policy may be new since).
      if (status === 'triggered') start(event, key, undefined);
      continue;
    }
    if (status === 'triggered') {
      if (currentRun(current).state === 'running') continue;
      stop(event, current, status, 'retriggered');
      start(event, key, current);
    } else if (status === 'acknowledged') {
      stop(event, current, status, 'acknowledged');
    } else {
      stop(event, current, status, status === 'ignored' ? 'ignored' : 'resolved');
    }
  }
  for (const current of runs.values()) if ('stored' in current && current.update) changes.updates.push(current.update);
  const nothing = changes.starts.length + changes.updates.length + changes.notices.length === 0;
  return { changes: nothing ? null : changes, events: [], activity };
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The notices of an acknowledgement or a resolution: to each member the run paged who asked for
 * notices, by every contact method that paged them (once each), due at once.
 */
function notices(event: EscalatedEvent, escalation: StoredEscalation, notice: PageNotice, state: EscalationEventState): NewPage[] {
  const eventId = alertEventId(event);
  const seen = new Set<string>();
  const pages: NewPage[] = [];
  for (const recipient of state.paged.get(escalation.id) ?? []) {
    if (recipient.userId === null || !state.noticeUsers.has(recipient.userId)) continue;
    const key = `${recipient.userId}\n${recipient.method}\n${recipient.address}`;
    if (seen.has(key)) continue;
    seen.add(key);
    pages.push({
      escalationId: escalation.id,
      projectId: escalation.projectId,
      alertId: escalation.alertId,
      kind: 'notice',
      loop: escalation.nextStep?.loop ?? 0,
      rule: null,
      condition: null,
      method: recipient.method,
      userId: recipient.userId,
      username: recipient.username,
      address: recipient.address,
      contactMethodId: recipient.contactMethodId,
      dueAt: Date.parse(event.occurred_at),
      notice,
      idempotencyKey: pageIdempotencyKey('notice', escalation.id, eventId, recipient.userId, recipient.method, recipient.address),
    });
  }
  return pages;
}
