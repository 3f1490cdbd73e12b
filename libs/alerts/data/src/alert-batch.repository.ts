import { AlertEvent, CreatedAlert } from '@alert-ingestion/contracts';
import { AlertCandidate, AlertOperation, openAlertKey, PlannedAlert, planGrouping } from '@alert-ingestion/alerts-domain';
import { PoolClient } from 'pg';
import { insertOutboxEvents, OutboxEvent } from './alert-event-outbox';
import { ALERT_COLUMNS, AlertRow, alertView } from './alert-row';
import { AlertsDatabase, sqlState } from './alerts-database';

/** The alert payloads of one raw alert message, ready to store. */
export interface RawAlertWork {
  requestId: string;
  projectId: string;
  integrationId: string;
  candidates: AlertCandidate[];
}

/** The stored answer to one raw alert message: one element per alert created or grouped into. */
export interface RawAlertResult {
  requestId: string;
  alerts: CreatedAlert[];
  /** The message had been processed before (a redelivery): nothing changed, the stored answer is repeated. */
  redelivered: boolean;
}

interface InsertedAlertRow extends AlertRow {
  inserted: boolean;
}

/** One alert payload of the batch, in batch order. */
interface Item {
  work: number;
  projectId: string;
  candidate: AlertCandidate;
}

interface PendingEvent {
  item: number;
  event: OutboxEvent;
}

const EVENT_TYPE: Record<AlertOperation, AlertEvent.AlertEventType> = {
  create: 'alert.created',
  group: 'alert.grouped',
  resolve: 'alert.resolved',
};

/** A concurrent instance stored the same request id first: run the batch again, it is then a redelivery. */
function isDuplicateRequest(error: unknown): boolean {
  return sqlState(error) === '23505' && (error as { constraint?: string }).constraint === 'processed_raw_alerts_pkey';
}

/**
 * Stores batches of raw alert messages: one transaction per batch and a fixed number of set-based
 * statements whatever the batch size (issue 4 point 8). The effect is exactly once per request id
 * (issue 4 point 6): a message whose request id is in processed_raw_alerts changes nothing and gets
 * its stored answer again.
 *
 * Grouping is decided by the pure rules of planGrouping over the batch in order, against the
 * not-resolved alerts locked at the start; the partial unique index alerts_open_fingerprint_key
 * (one not-resolved alert per project and fingerprint) is the final arbiter: a new alert that
 * another instance created meanwhile turns into a grouping through ON CONFLICT ... DO UPDATE
 * (issue 4 point 5: "enforce it in the database, not only in memory").
 */
export class AlertBatchRepository {
  constructor(private readonly database: AlertsDatabase) {}

  async store(batch: readonly RawAlertWork[], now: Date): Promise<RawAlertResult[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.database.transaction((client) => this.storeIn(client, batch, now));
      } catch (error) {
        if (attempt >= 3 || !isDuplicateRequest(error)) throw error;
      }
    }
  }

  private async storeIn(client: PoolClient, batch: readonly RawAlertWork[], now: Date): Promise<RawAlertResult[]> {
    const requestIds = [...new Set(batch.map((work) => work.requestId))];
    const previous = await client.query<{ request_id: string; result: { alerts: CreatedAlert[] } }>(
      'SELECT request_id, result FROM processed_raw_alerts WHERE request_id = ANY($1::uuid[])',
      [requestIds],
    );
    const stored = new Map(previous.rows.map((row) => [row.request_id, row.result.alerts]));

    // A request id seen earlier in this batch is a redelivery too; only its first copy counts.
    const fresh: number[] = [];
    const seen = new Set<string>();
    batch.forEach((work, index) => {
      if (stored.has(work.requestId) || seen.has(work.requestId)) return;
      seen.add(work.requestId);
      fresh.push(index);
    });

    const items: Item[] = fresh.flatMap((work) =>
      batch[work].candidates.map((candidate) => ({ work, projectId: batch[work].projectId, candidate })),
    );
    const answers = new Map<number, CreatedAlert[]>(fresh.map((work) => [work, []]));
    if (items.length > 0) await this.applyAlerts(client, batch, items, answers, now);

    if (fresh.length > 0) {
      await client.query(
        `INSERT INTO processed_raw_alerts (request_id, project_id, result, processed_at)
         SELECT r.request_id, r.project_id, r.result, $2
         FROM jsonb_to_recordset($1::jsonb) AS r(request_id uuid, project_id bigint, result jsonb)`,
        [
          JSON.stringify(
            fresh.map((work) => ({
              request_id: batch[work].requestId,
              project_id: batch[work].projectId,
              result: { alerts: answers.get(work) },
            })),
          ),
          now,
        ],
      );
    }

    const byRequest = new Map<string, CreatedAlert[]>(stored);
    for (const work of fresh) byRequest.set(batch[work].requestId, answers.get(work) ?? []);
    return batch.map((work, index) => ({
      requestId: work.requestId,
      alerts: byRequest.get(work.requestId) ?? [],
      redelivered: !answers.has(index),
    }));
  }

  private async applyAlerts(
    client: PoolClient,
    batch: readonly RawAlertWork[],
    items: readonly Item[],
    answers: Map<number, CreatedAlert[]>,
    now: Date,
  ): Promise<void> {
    const open = await this.lockOpenAlerts(client, items);
    const plan = planGrouping(
      items.map(({ projectId, candidate }) => ({
        projectId,
        fingerprintSha256: candidate.fingerprintSha256,
        recovery: candidate.endedAt !== null,
      })),
      new Map([...open.values()].map((row) => [openAlertKey(row.project_id, row.fingerprint_sha256 as string), row.id])),
    );
    const iids = await this.allocateIids(client, plan.alerts);
    const updated = await this.updateExisting(client, plan.alerts, items, now);
    const inserted = await this.insertNew(client, batch, plan.alerts, items, iids, now);

    const events: PendingEvent[] = [];
    const finalRows: AlertRow[] = plan.alerts.map((planned, index) => {
      if (planned.existingAlertId !== null) {
        events.push(...replayExisting(planned, open.get(planned.existingAlertId) as AlertRow, items, now));
        return updated.get(planned.existingAlertId) as AlertRow;
      }
      const row = inserted.get(index) as InsertedAlertRow;
      events.push(...replayNew(planned, row, items, now));
      return row;
    });
    // Events follow the order of the payloads, so per alert they follow the order of its changes.
    events.sort((a, b) => a.item - b.item);
    await insertOutboxEvents(
      client,
      events.map(({ event }) => event),
    );

    plan.itemAlert.forEach((alertIndex, item) => {
      if (alertIndex === null) return;
      const row = finalRows[alertIndex];
      answers.get(items[item].work)?.push({ iid: row.iid, title: row.title });
    });
  }

  /**
   * The not-resolved alerts the batch's fingerprints match, locked until commit so that no other
   * transaction resolves or changes them meanwhile. One index probe of alerts_open_fingerprint_key
   * per fingerprint (the LATERAL subquery keeps the planner from scanning the table), in one order
   * of (project, fingerprint) that every batch uses, so that instances do not wait on each other in a cycle.
   */
  private async lockOpenAlerts(client: PoolClient, items: readonly Item[]): Promise<Map<string, AlertRow>> {
    const keys = new Map<string, { project_id: string; fingerprint_sha256: string }>();
    for (const { projectId, candidate } of items) {
      if (candidate.fingerprintSha256 === null) continue;
      keys.set(openAlertKey(projectId, candidate.fingerprintSha256), { project_id: projectId, fingerprint_sha256: candidate.fingerprintSha256 });
    }
    if (keys.size === 0) return new Map();
    const ordered = [...keys.values()].sort(
      (a, b) => a.project_id.localeCompare(b.project_id) || a.fingerprint_sha256.localeCompare(b.fingerprint_sha256),
    );
    const result = await client.query<AlertRow>(
      `SELECT ${ALERT_COLUMNS.replace(/(\w+)/g, 'a.$1')}
       FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (project_id bigint, fingerprint_sha256 char(64))) WITH ORDINALITY AS k(project_id, fingerprint_sha256, position)
       CROSS JOIN LATERAL (
         SELECT * FROM alerts
         WHERE alerts.project_id = k.project_id AND alerts.fingerprint_sha256 = k.fingerprint_sha256
           AND alerts.status <> 'resolved' AND alerts.fingerprint_sha256 IS NOT NULL
         OFFSET 0
         FOR UPDATE
       ) AS a
       ORDER BY k.position`,
      [JSON.stringify(ordered)],
    );
    return new Map(result.rows.map((row) => [row.id, row]));
  }

  /**
   * Takes the iids of the batch's new alerts with one statement per batch: the counter row of each
   * project is raised by the number of new alerts (iids count from 1 per project, spec 2.4).
   * Returns the iid per index of `alerts`.
   */
  private async allocateIids(client: PoolClient, alerts: readonly PlannedAlert[]): Promise<Map<number, number>> {
    const counts = new Map<string, number>();
    for (const planned of alerts) {
      if (planned.existingAlertId === null) counts.set(planned.projectId, (counts.get(planned.projectId) ?? 0) + 1);
    }
    const iids = new Map<number, number>();
    if (counts.size === 0) return iids;
    const result = await client.query<{ project_id: string; last_iid: number }>(
      `INSERT INTO alert_iid_counters (project_id, last_iid)
       SELECT c.project_id, c.count FROM jsonb_to_recordset($1::jsonb) AS c(project_id bigint, count int) ORDER BY c.project_id
       ON CONFLICT (project_id) DO UPDATE SET last_iid = alert_iid_counters.last_iid + EXCLUDED.last_iid
       RETURNING project_id, last_iid`,
      [JSON.stringify([...counts].map(([project_id, count]) => ({ project_id, count })))],
    );
    const next = new Map(result.rows.map((row) => [row.project_id, row.last_iid - (counts.get(row.project_id) ?? 0) + 1]));
    alerts.forEach((planned, index) => {
      if (planned.existingAlertId !== null) return;
      const iid = next.get(planned.projectId) as number;
      iids.set(index, iid);
      next.set(planned.projectId, iid + 1);
    });
    return iids;
  }

  /** Existing not-resolved alerts: the events counter grows by the payloads grouped into them; a recovery resolves them. */
  private async updateExisting(
    client: PoolClient,
    alerts: readonly PlannedAlert[],
    items: readonly Item[],
    now: Date,
  ): Promise<Map<string, AlertRow>> {
    const updates = alerts
      .filter((planned) => planned.existingAlertId !== null)
      .map((planned) => ({
        id: planned.existingAlertId,
        grouped: planned.operations.filter((operation) => operation === 'group').length,
        ended_at: planned.resolvedByItem === null ? null : items[planned.resolvedByItem].candidate.endedAt,
      }));
    if (updates.length === 0) return new Map();
    const result = await client.query<AlertRow>(
      `UPDATE alerts a SET
         events = a.events + u.grouped,
         status = CASE WHEN u.ended_at IS NULL THEN a.status ELSE 'resolved'::alert_status END,
         ended_at = COALESCE(u.ended_at, a.ended_at),
         updated_at = $2
       FROM jsonb_to_recordset($1::jsonb) AS u(id bigint, grouped int, ended_at timestamptz)
       WHERE a.id = u.id
       RETURNING ${ALERT_COLUMNS.replace(/(\w+)/g, 'a.$1')}`,
      [JSON.stringify(updates), now],
    );
    return new Map(result.rows.map((row) => [row.id, row]));
  }

  /**
   * New alerts, from the payload that created each. An alert whose fingerprint another transaction
   * has meanwhile given a not-resolved alert is grouped into that one instead (ON CONFLICT on the
   * partial unique index); an alert the batch also resolves is inserted resolved and never conflicts.
   * Returns the stored row per index of `alerts`.
   */
  private async insertNew(
    client: PoolClient,
    batch: readonly RawAlertWork[],
    alerts: readonly PlannedAlert[],
    items: readonly Item[],
    iids: ReadonlyMap<number, number>,
    now: Date,
  ): Promise<Map<number, InsertedAlertRow>> {
    const rows = alerts
      .map((planned, index) => ({ planned, index }))
      .filter(({ planned }) => planned.existingAlertId === null)
      .map(({ planned, index }) => {
        const first = items[planned.items[0]];
        const { candidate } = first;
        return {
          index,
          project_id: planned.projectId,
          iid: iids.get(index) as number,
          integration_id: batch[first.work].integrationId,
          title: candidate.title,
          description: candidate.description,
          severity: candidate.severity,
          status: planned.resolvedByItem === null ? 'triggered' : 'resolved',
          events: planned.operations.filter((operation) => operation !== 'resolve').length,
          started_at: candidate.startedAt,
          ended_at: planned.resolvedByItem === null ? null : items[planned.resolvedByItem].candidate.endedAt,
          service: candidate.service,
          monitoring_tool: candidate.monitoringTool,
          hosts: candidate.hosts,
          platform_environment_name: candidate.platformEnvironmentName,
          fingerprint: candidate.fingerprint,
          fingerprint_sha256: candidate.fingerprintSha256,
          payload: candidate.payload,
        };
      })
      // One order for every instance, so that concurrent inserts wait on each other without cycles.
      .sort((a, b) => a.project_id.localeCompare(b.project_id) || (a.fingerprint_sha256 ?? '').localeCompare(b.fingerprint_sha256 ?? ''));
    const byIndex = new Map<number, InsertedAlertRow>();
    if (rows.length === 0) return byIndex;
    const result = await client.query<InsertedAlertRow>(
      `INSERT INTO alerts (project_id, iid, integration_id, title, description, severity, status, events, started_at, ended_at,
         service, monitoring_tool, hosts, platform_environment_name, fingerprint, fingerprint_sha256, payload, created_at, updated_at)
       SELECT r.project_id, r.iid, r.integration_id, r.title, r.description, r.severity::alert_severity, r.status::alert_status,
         r.events, r.started_at, r.ended_at, r.service, r.monitoring_tool, r.hosts, r.platform_environment_name, r.fingerprint,
         r.fingerprint_sha256, r.payload, $2, $2
       FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (project_id bigint, iid int, integration_id bigint, title text,
         description text, severity text, status text, events int, started_at timestamptz, ended_at timestamptz, service text,
         monitoring_tool text, hosts text[], platform_environment_name text, fingerprint text, fingerprint_sha256 char(64),
         payload jsonb)) WITH ORDINALITY AS r
       ORDER BY r.ordinality
       ON CONFLICT (project_id, fingerprint_sha256) WHERE status <> 'resolved' AND fingerprint_sha256 IS NOT NULL
       DO UPDATE SET events = alerts.events + EXCLUDED.events, updated_at = EXCLUDED.updated_at
       RETURNING ${ALERT_COLUMNS}, (xmax = 0) AS inserted`,
      [JSON.stringify(rows.map(({ index: _index, ...row }) => row)), now],
    );
    // Inserted rows carry the iid given here; a row grouped by ON CONFLICT is the other alert, found by fingerprint.
    const byIid = new Map(rows.map((row) => [`${row.project_id}:${row.iid}`, row.index]));
    const openByFingerprint = new Map(
      rows.filter((row) => row.status !== 'resolved' && row.fingerprint_sha256 !== null).map((row) => [`${row.project_id}:${row.fingerprint_sha256}`, row.index]),
    );
    for (const row of result.rows) {
      const index = row.inserted ? byIid.get(`${row.project_id}:${row.iid}`) : openByFingerprint.get(`${row.project_id}:${row.fingerprint_sha256}`);
      if (index !== undefined) byIndex.set(index, row);
    }
    return byIndex;
  }
}

function event(item: number, type: AlertEvent.AlertEventType, state: AlertRow, now: Date): PendingEvent {
  return {
    item,
    event: {
      projectId: state.project_id,
      iid: state.iid,
      value: { type, occurred_at: now.toISOString(), project_id: state.project_id, alert: alertView(state) },
    },
  };
}

/** One event per change to an existing alert, each carrying the alert as it was right after that change. */
function replayExisting(planned: PlannedAlert, before: AlertRow, items: readonly Item[], now: Date): PendingEvent[] {
  let state: AlertRow = before;
  return planned.operations.map((operation, position) => {
    const item = planned.items[position];
    state =
      operation === 'resolve'
        ? { ...state, status: 'resolved', ended_at: items[item].candidate.endedAt, updated_at: now }
        : { ...state, events: state.events + 1, updated_at: now };
    return event(item, EVENT_TYPE[operation], state, now);
  });
}

/** Events of a new alert: created, then grouped and resolved as the batch went on. */
function replayNew(planned: PlannedAlert, row: InsertedAlertRow, items: readonly Item[], now: Date): PendingEvent[] {
  const { inserted: _inserted, ...stored } = row;
  if (!row.inserted) {
    // Another transaction created the alert first: every payload of this batch was grouped into it.
    let state: AlertRow = { ...stored, events: stored.events - planned.operations.length };
    return planned.operations.map((_operation, position) => {
      state = { ...state, events: state.events + 1 };
      return event(planned.items[position], 'alert.grouped', state, now);
    });
  }
  let state: AlertRow = { ...stored, events: 0, status: 'triggered', ended_at: null };
  return planned.operations.map((operation, position) => {
    const item = planned.items[position];
    state =
      operation === 'resolve'
        ? { ...state, status: 'resolved', ended_at: items[item].candidate.endedAt }
        : { ...state, events: state.events + 1 };
    return event(item, EVENT_TYPE[operation], state, now);
  });
}
