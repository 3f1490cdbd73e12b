import { AlertEvent, CreatedAlert } from '@alert-ingestion/contracts';
import { AlertCandidate, AlertOperation, openAlertKey, PlannedAlert, planGrouping } from '@alert-ingestion/alerts-domain';
import { OutboxEvent } from './alert-event-outbox';
import { AlertRow, AlertState, alertView } from './alert-row';

/** One alert payload of a batch, in batch order, and the raw alert message (`work`) it came from. */
export interface BatchItem {
  work: number;
  projectId: string;
  integrationId: string;
  candidate: AlertCandidate;
}

/** A new alert as inserted; iid taken from the project's counter. */
export type NewAlertRow = Omit<AlertState, 'created_at' | 'updated_at'>;

/** Payloads grouped into an existing not-resolved alert, and the end time when one of them resolves it. */
export interface AlertUpdate {
  id: string;
  grouped: number;
  ended_at: Date | null;
}

/**
 * What one alert payload did (spec 3): created an alert, was grouped into one, resolved one, or was
 * a recovery alert that found no open alert to resolve (no effect).
 */
export type AlertAction = 'created' | 'grouped' | 'resolved' | 'unmatched';

export const ALERT_ACTIONS: readonly AlertAction[] = ['created', 'grouped', 'resolved', 'unmatched'];

/** Everything one batch writes. */
export interface AlertBatchChanges {
  /** The new last iid of each project that gets new alerts. */
  iidCounters: Array<{ project_id: string; last_iid: number }>;
  updates: AlertUpdate[];
  inserts: NewAlertRow[];
  /** One event per change, in payload order (so per alert in the order of its changes). */
  events: OutboxEvent[];
  /** Per raw alert message (index of `work`) that created or changed alerts: one element per payload that did. */
  answers: Map<number, CreatedAlert[]>;
  /** Per raw alert message (index of `work`): what each of its payloads did, in payload order. */
  actions: Map<number, AlertAction[]>;
}

const EVENT_TYPE: Record<AlertOperation, AlertEvent.AlertEventType> = {
  create: 'alert.created',
  group: 'alert.grouped',
  resolve: 'alert.resolved',
};

const ACTION: Record<AlertOperation, AlertAction> = { create: 'created', group: 'grouped', resolve: 'resolved' };

/**
 * What a batch of alert payloads changes, given the state it starts from: the not-resolved alerts
 * its fingerprints match (`open`, by alert id, locked by the caller) and each project's last iid
 * (`lastIids`, locked too). Grouping and recovery follow planGrouping; each change yields the event
 * carrying the alert as it was right after that change. Pure: the caller reads and writes.
 */
export function alertBatchChanges(
  items: readonly BatchItem[],
  open: ReadonlyMap<string, AlertRow>,
  lastIids: ReadonlyMap<string, number>,
  now: Date,
): AlertBatchChanges {
  const plan = planGrouping(
    items.map(({ projectId, candidate }) => ({ projectId, fingerprintSha256: candidate.fingerprintSha256, recovery: candidate.endedAt !== null })),
    new Map([...open.values()].map((row) => [openAlertKey(row.project_id, row.fingerprint_sha256 as string), row.id])),
  );
  const nextIid = new Map(lastIids);
  const updates: AlertUpdate[] = [];
  const inserts: NewAlertRow[] = [];
  const changes: Array<{ item: number; event: OutboxEvent }> = [];
  // An item no planned alert took is a recovery alert without an open alert (planGrouping).
  const itemActions: AlertAction[] = items.map(() => 'unmatched');

  const finalStates = plan.alerts.map((planned) => {
    const start = planned.existingAlertId === null ? undefined : (open.get(planned.existingAlertId) as AlertRow);
    let state: AlertState = start ?? newAlert(planned, items, (nextIid.get(planned.projectId) ?? 0) + 1, now);
    if (!start) nextIid.set(planned.projectId, state.iid);
    planned.operations.forEach((operation, position) => {
      const item = planned.items[position];
      state = applyOperation(state, operation, items[item].candidate, now);
      itemActions[item] = ACTION[operation];
      changes.push({ item, event: { projectId: state.project_id, iid: state.iid, value: eventValue(EVENT_TYPE[operation], state, now) } });
    });
    if (start) {
      updates.push({
        id: start.id,
        grouped: planned.operations.filter((operation) => operation === 'group').length,
        ended_at: planned.resolvedByItem === null ? null : items[planned.resolvedByItem].candidate.endedAt,
      });
    } else {
      const { created_at: _created, updated_at: _updated, ...row } = state;
      inserts.push(row);
    }
    return state;
  });

  const actions = new Map<number, AlertAction[]>();
  items.forEach(({ work }, item) => {
    const list = actions.get(work);
    if (list) list.push(itemActions[item]);
    else actions.set(work, [itemActions[item]]);
  });

  const answers = new Map<number, CreatedAlert[]>();
  plan.itemAlert.forEach((alertIndex, item) => {
    if (alertIndex === null) return;
    const { work } = items[item];
    const state = finalStates[alertIndex];
    answers.set(work, [...(answers.get(work) ?? []), { iid: state.iid, title: state.title }]);
  });

  return {
    iidCounters: [...nextIid]
      .filter(([projectId, lastIid]) => lastIid !== (lastIids.get(projectId) ?? 0))
      .map(([project_id, last_iid]) => ({ project_id, last_iid })),
    updates,
    inserts,
    events: changes.sort((a, b) => a.item - b.item).map(({ event }) => event),
    answers,
    actions,
  };
}

/** A new alert from the payload that creates it, before that payload counts as its first event. */
function newAlert(planned: PlannedAlert, items: readonly BatchItem[], iid: number, now: Date): AlertState {
  const { candidate, projectId, integrationId } = items[planned.items[0]];
  return {
    project_id: projectId,
    iid,
    integration_id: integrationId,
    title: candidate.title,
    description: candidate.description,
    severity: candidate.severity,
    status: 'triggered',
    events: 0,
    started_at: candidate.startedAt,
    ended_at: null,
    service: candidate.service,
    monitoring_tool: candidate.monitoringTool,
    hosts: candidate.hosts,
    platform_environment_name: candidate.platformEnvironmentName,
    fingerprint: candidate.fingerprint,
    fingerprint_sha256: candidate.fingerprintSha256,
    payload: candidate.payload,
    created_at: now,
    updated_at: now,
  };
}

function applyOperation(state: AlertState, operation: AlertOperation, candidate: AlertCandidate, now: Date): AlertState {
  return operation === 'resolve'
    ? { ...state, status: 'resolved', ended_at: candidate.endedAt, updated_at: now }
    : { ...state, events: state.events + 1, updated_at: now };
}

function eventValue(type: AlertEvent.AlertEventType, state: AlertState, now: Date): AlertEvent.AlertEventValue {
  return { type, occurred_at: now.toISOString(), project_id: Number(state.project_id), alert: alertView(state) };
}
