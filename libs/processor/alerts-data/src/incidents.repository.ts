import {
  ActivityEntryOut,
  AlertRef,
  alertsWithoutIncident,
  automaticIncidents,
  AutomationSettings,
  IncidentActor,
  incidentCreatedRecords,
  IncidentEventOut,
  IncidentFields,
  planAlertLink,
  planIncidentFromAlert,
  planIncidentUpdate,
  IncidentUpdateRequest,
  incidentIidsNeeded,
  linkEntries,
  StoredAlert,
  StoredIncident,
  isRefused,
} from '@alert-ingestion/alerts-domain';
import { AlertSettingsView, IncidentEvent, IncidentStatus, Topic, TOPIC_REGISTRY } from '@alert-ingestion/contracts';
import { OutboxRecord, outboxStatements, OutboxTable, outboxTable } from '@alert-ingestion/outbox';
import { likePattern, sqlLiteral } from '@alert-ingestion/sql';
import { PoolClient } from 'pg';
import { activityStatements } from './activity-entries';
import { alertEventStatements } from './alert-event-outbox';
import { AlertsDatabase } from './alerts-database';
import { ALERT_COLUMNS, ALERTS_WITH_SILENCE, AlertRow, storedAlert } from './alerts-query.repository';
import { CommandResult } from './run-command';

/** The processor's transactional outbox of incident events, published to incidents.events.v1. */
export const INCIDENT_EVENT_OUTBOX: OutboxTable = outboxTable('incident_event_outbox');

/** An incident event as an outbox record, keyed `<project_id>:<iid>` (every event of one incident in one partition, in order). */
function incidentEventRecord(event: IncidentEventOut): OutboxRecord {
  return { key: IncidentEvent.incidentEventKey(event.projectId, event.iid), value: TOPIC_REGISTRY[Topic.IncidentEvents].encode(event.value) };
}

function incidentEventStatements(events: readonly IncidentEventOut[]): string[] {
  return outboxStatements(INCIDENT_EVENT_OUTBOX, events.map(incidentEventRecord));
}

/** The columns of an incident `i`, with the iids of its linked alerts and of the alert it was opened from. */
const INCIDENT_COLUMNS = `i.id, i.project_id, i.iid, i.title, i.description, i.severity::text AS severity, i.status::text AS status,
  i.created_by_user_id, i.created_by_alert_id, (SELECT c.iid FROM alerts c WHERE c.id = i.created_by_alert_id) AS created_by_alert_iid,
  ARRAY(SELECT l.iid FROM alerts l WHERE l.incident_id = i.id ORDER BY l.iid) AS alert_iids,
  i.closed_at, i.created_at, i.updated_at`;

export interface IncidentListQuery {
  projectId: string;
  status?: IncidentStatus;
  /** Case-insensitive text searched in title and description. */
  search?: string;
  page: number;
  perPage: number;
}

/** What a user's command needs besides its request: who asks, and the usernames its answer and events name. */
export interface IncidentCommandContext {
  actor: IncidentActor;
  usernames?: ReadonlyMap<string, string>;
  now: Date;
}

/**
 * Incidents and the project's alert settings: reads, and the commands that open, link, close and
 * reopen incidents, each in one transaction that locks what it decides on (the incident before its
 * alerts, the order every command keeps) and writes, with the change, its timeline entries and its
 * events (incident events to incident_event_outbox, alert events to alert_event_outbox). An alert
 * has at most one incident: every link sets alerts.incident_id under the alert's row lock, only
 * while it is NULL, so two links of one alert at once make one.
 */
export class IncidentsRepository {
  constructor(private readonly database: AlertsDatabase) {}

  /** Newest first (highest iid first). */
  async list(query: IncidentListQuery): Promise<{ incidents: StoredIncident[]; total: number }> {
    const conditions = ['i.project_id = $1'];
    const parameters: unknown[] = [query.projectId];
    if (query.status) {
      parameters.push(query.status);
      conditions.push(`i.status = $${parameters.length}::incident_status`);
    }
    if (query.search) {
      parameters.push(likePattern(query.search));
      conditions.push(`(i.title ILIKE $${parameters.length} OR i.description ILIKE $${parameters.length})`);
    }
    const offset = (query.page - 1) * query.perPage;
    const { rows, total } = await this.database.page<StoredIncident>(
      INCIDENT_COLUMNS,
      `incidents i WHERE ${conditions.join(' AND ')}`,
      `ORDER BY i.iid DESC LIMIT ${query.perPage} OFFSET ${offset}`,
      parameters,
    );
    return { incidents: rows, total };
  }

  async countByStatus(projectId: string): Promise<Map<IncidentStatus, number>> {
    const result = await this.database.pool.query<{ status: IncidentStatus; count: string }>(
      'SELECT status::text AS status, count(*) AS count FROM incidents WHERE project_id = $1 GROUP BY status',
      [projectId],
    );
    return new Map(result.rows.map((row) => [row.status, Number(row.count)]));
  }

  async find(projectId: string, iid: number): Promise<StoredIncident | undefined> {
    const result = await this.database.pool.query<StoredIncident>(`SELECT ${INCIDENT_COLUMNS} FROM incidents i WHERE i.project_id = $1 AND i.iid = $2`, [projectId, iid]);
    return result.rows[0];
  }

  /** `POST .../incidents`: an incident a user opens. */
  create(projectId: string, fields: IncidentFields, createdByUserId: string | null, context: IncidentCommandContext): Promise<StoredIncident> {
    return this.database.transaction(async (client) => {
      const incident = await insertIncident(client, projectId, fields, createdByUserId, null, context.now);
      const { entries, events } = incidentCreatedRecords(incident, null, context.actor, context.now, context.usernames);
      await writeRecords(client, entries, events);
      return incident;
    });
  }

  /**
   * `POST .../alerts/:iid/incident`, and the create_incident setting: an incident opened from an
   * alert, linked to it. Refused when the alert has an incident already (so a redelivered alert
   * event, or two clicks at once, open one).
   */
  createFromAlert(projectId: string, alertIid: number, createdByUserId: string | null, context: IncidentCommandContext): Promise<CommandResult<StoredIncident>> {
    return this.database.transaction(async (client) => {
      const alert = await lockAlert(client, projectId, alertIid);
      const plan = planIncidentFromAlert(alert, alertIid, createdByUserId);
      if (isRefused(plan)) return plan;
      const linked = plan.alert as StoredAlert;
      const inserted = await insertIncident(client, projectId, plan.fields, createdByUserId, linked.id, context.now);
      await client.query('UPDATE alerts SET incident_id = $2 WHERE id = $1', [linked.id, inserted.id]);
      const incident: StoredIncident = { ...inserted, created_by_alert_iid: linked.iid, alert_iids: [linked.iid] };
      const { entries, events } = incidentCreatedRecords(incident, linked, context.actor, context.now, context.usernames);
      await writeRecords(client, entries, events);
      return { answer: incident };
    });
  }

  /** `POST .../incidents/:iid/alerts {alert_iid}`: links an alert (planAlertLink). */
  linkAlert(projectId: string, incidentIid: number, alertIid: number, context: IncidentCommandContext): Promise<CommandResult<StoredIncident>> {
    return this.database.transaction(async (client) => {
      const incident = await lockIncident(client, projectId, incidentIid);
      const alert = await lockAlert(client, projectId, alertIid);
      const plan = planAlertLink(incident, String(incidentIid), alert, alertIid);
      if (isRefused(plan)) return plan;
      const found = incident as StoredIncident;
      if (!plan.link) return { answer: found };
      await client.query('UPDATE alerts SET incident_id = $2 WHERE id = $1 AND incident_id IS NULL', [(alert as StoredAlert).id, found.id]);
      await writeRecords(client, linkEntries(alert as StoredAlert, found, context.actor, context.now), []);
      return { answer: { ...found, alert_iids: [...found.alert_iids, alertIid] } };
    });
  }

  /** `PUT .../incidents/:iid`: fields, close (resolving its linked alerts) or reopen (planIncidentUpdate). */
  update(projectId: string, iid: number, request: IncidentUpdateRequest, context: IncidentCommandContext): Promise<CommandResult<StoredIncident>> {
    return this.database.transaction((client) => updateIncident(client, projectId, iid, request, context));
  }

  /**
   * The create_incident setting over a batch of alert events: an incident for each of `alerts` that
   * has none yet, linked to it, all in one transaction of three round trips whatever their number:
   * lock the alerts (in id order, as every batch does, so batches never deadlock each other), reserve
   * the projects' iids and the incidents' ids, then write the incidents, the links, their timeline
   * entries and events with the COMMIT. An alert with an incident (an event delivered again, a person
   * who opened one first, another batch that got the lock first) gets no other. Resolves the
   * incidents opened.
   */
  openIncidentsFromAlerts(alerts: readonly AlertRef[], now: Date): Promise<StoredIncident[]> {
    if (alerts.length === 0) return Promise.resolve([]);
    const refs = sqlLiteral.json(alerts.map((alert) => ({ project_id: alert.projectId, iid: alert.alertIid })));
    return this.database.scriptedTransaction(async (transaction) => {
      const [locked] = await transaction.step<AlertRow>([
        `SELECT ${ALERT_COLUMNS} FROM ${ALERTS_WITH_SILENCE}
         WHERE (a.project_id, a.iid) IN (SELECT r.project_id, r.iid FROM json_to_recordset(${refs}) AS r(project_id bigint, iid int))
         ORDER BY a.id FOR UPDATE OF a`,
      ]);
      const opened = alertsWithoutIncident(locked.rows.map(storedAlert));
      if (opened.length === 0) {
        await transaction.commit([]);
        return [];
      }
      const needed = [...incidentIidsNeeded(opened)].map(([project_id, count]) => ({ project_id, count }));
      // The counters are locked in project order until COMMIT, so iids are given in commit order.
      const [counters, ids] = await transaction.step<{ project_id: string; last_iid: number; id: string }>([
        `INSERT INTO incident_iid_counters (project_id, last_iid)
         SELECT c.project_id, c.count FROM json_to_recordset(${sqlLiteral.json(needed)}) AS c(project_id bigint, count int) ORDER BY c.project_id
         ON CONFLICT (project_id) DO UPDATE SET last_iid = incident_iid_counters.last_iid + EXCLUDED.last_iid
         RETURNING project_id::text AS project_id, last_iid`,
        `SELECT nextval(pg_get_serial_sequence('incidents', 'id'))::text AS id FROM generate_series(1, ${opened.length}) ORDER BY 1`,
      ]);
      const lastIids = new Map(counters.rows.map((row) => [row.project_id, row.last_iid]));
      const { incidents, entries, events } = automaticIncidents(
        opened,
        ids.rows.map((row) => row.id),
        lastIids,
        now,
      );
      const rows = incidents.map((incident) => ({
        id: incident.id,
        project_id: incident.project_id,
        iid: incident.iid,
        title: incident.title,
        description: incident.description,
        severity: incident.severity,
        created_by_alert_id: incident.created_by_alert_id,
      }));
      const document = sqlLiteral.json(rows);
      await transaction.commit([
        `INSERT INTO incidents (id, project_id, iid, title, description, severity, status, created_by_alert_id, created_at, updated_at)
         SELECT r.id, r.project_id, r.iid, r.title, r.description, r.severity::alert_severity, 'open', r.created_by_alert_id, ${sqlLiteral.timestamptz(now)}, ${sqlLiteral.timestamptz(now)}
         FROM json_to_recordset(${document}) AS r(id bigint, project_id bigint, iid int, title text, description text, severity text, created_by_alert_id bigint)`,
        `UPDATE alerts a SET incident_id = r.id FROM json_to_recordset(${document}) AS r(id bigint, created_by_alert_id bigint) WHERE a.id = r.created_by_alert_id`,
        ...activityStatements(entries),
        ...incidentEventStatements(events),
      ]);
      return incidents;
    });
  }

  /**
   * The auto_close_incident setting: closes the incident of an alert a recovery payload resolved, if
   * it has one and it is open. Nothing to do (no incident, already closed) resolves null.
   */
  closeIncidentOf(projectId: string, alertIid: number, context: IncidentCommandContext): Promise<StoredIncident | null> {
    return this.database.transaction(async (client) => {
      const found = await client.query<{ iid: number; status: IncidentStatus }>(
        `SELECT i.iid, i.status::text AS status FROM alerts a JOIN incidents i ON i.id = a.incident_id WHERE a.project_id = $1 AND a.iid = $2`,
        [projectId, alertIid],
      );
      const incident = found.rows[0];
      if (!incident || incident.status === 'closed') return null;
      const result = await updateIncident(client, projectId, incident.iid, { status: 'closed' }, context);
      return 'answer' in result ? result.answer : null;
    });
  }

  /** A project's alert settings (all off when it has no row). */
  async alertSettings(projectId: string): Promise<Omit<AlertSettingsView, 'email_configured'>> {
    const result = await this.database.pool.query<Omit<AlertSettingsView, 'email_configured'>>(
      'SELECT create_incident, send_email, auto_close_incident FROM project_alert_settings WHERE project_id = $1',
      [projectId],
    );
    return result.rows[0] ?? { create_incident: false, send_email: false, auto_close_incident: false };
  }

  /** Whether any project opens or closes incidents with its alerts (create_incident or auto_close_incident on). */
  async anyProjectAutomates(): Promise<boolean> {
    const result = await this.database.pool.query<{ any: boolean }>('SELECT EXISTS (SELECT 1 FROM project_alert_settings WHERE create_incident OR auto_close_incident) AS any');
    return result.rows[0].any;
  }

  /** The automation's switches of several projects at once; a project without a row is left out (all off). */
  async automationSettingsOf(projectIds: readonly string[]): Promise<Map<string, AutomationSettings>> {
    if (projectIds.length === 0) return new Map();
    const result = await this.database.pool.query<AutomationSettings & { project_id: string }>(
      'SELECT project_id::text AS project_id, create_incident, auto_close_incident, updated_at FROM project_alert_settings WHERE project_id = ANY($1::bigint[])',
      [[...new Set(projectIds)]],
    );
    return new Map(result.rows.map(({ project_id, ...settings }) => [project_id, settings]));
  }

  /** Sets the switches given, keeping the others. */
  async updateAlertSettings(projectId: string, settings: Partial<Omit<AlertSettingsView, 'email_configured'>>): Promise<Omit<AlertSettingsView, 'email_configured'>> {
    const result = await this.database.pool.query<Omit<AlertSettingsView, 'email_configured'>>(
      `INSERT INTO project_alert_settings (project_id, create_incident, send_email, auto_close_incident, updated_at)
       VALUES ($1, COALESCE($2, false), COALESCE($3, false), COALESCE($4, false), now())
       ON CONFLICT (project_id) DO UPDATE SET
         create_incident = COALESCE($2, project_alert_settings.create_incident),
         send_email = COALESCE($3, project_alert_settings.send_email),
         auto_close_incident = COALESCE($4, project_alert_settings.auto_close_incident),
         updated_at = now()
       RETURNING create_incident, send_email, auto_close_incident`,
      [projectId, settings.create_incident ?? null, settings.send_email ?? null, settings.auto_close_incident ?? null],
    );
    return result.rows[0];
  }
}

async function updateIncident(client: PoolClient, projectId: string, iid: number, request: IncidentUpdateRequest, context: IncidentCommandContext): Promise<CommandResult<StoredIncident>> {
  const incident = await lockIncident(client, projectId, iid);
  const linked = incident
    ? (await client.query<AlertRow>(`SELECT ${ALERT_COLUMNS} FROM ${ALERTS_WITH_SILENCE} WHERE a.incident_id = $1 ORDER BY a.id FOR UPDATE OF a`, [incident.id])).rows.map(storedAlert)
    : [];
  const plan = planIncidentUpdate(incident, String(iid), linked, request, context.actor, context.now, context.usernames);
  if (isRefused(plan)) return plan;
  if (plan.incident !== incident) {
    const next = plan.incident;
    await client.query(
      `UPDATE incidents SET title = $2, description = $3, severity = $4::alert_severity, status = $5::incident_status, closed_at = $6, updated_at = $7 WHERE id = $1`,
      [next.id, next.title, next.description, next.severity, next.status, next.closed_at, next.updated_at],
    );
  }
  if (plan.resolvedAlerts.length > 0) {
    await client.query(
      `UPDATE alerts a SET status = 'resolved'::alert_status, ended_at = u.ended_at, updated_at = u.updated_at
       FROM json_to_recordset($1::json) AS u(id bigint, ended_at timestamptz, updated_at timestamptz) WHERE a.id = u.id`,
      [JSON.stringify(plan.resolvedAlerts.map((alert) => ({ id: alert.id, ended_at: alert.ended_at, updated_at: alert.updated_at })))],
    );
  }
  await writeRecords(client, plan.entries, plan.incidentEvents, alertEventStatements(plan.alertEvents));
  return { answer: plan.incident };
}

async function lockIncident(client: PoolClient, projectId: string, iid: number): Promise<StoredIncident | undefined> {
  const locked = await client.query<{ id: string }>('SELECT id FROM incidents WHERE project_id = $1 AND iid = $2 FOR UPDATE', [projectId, iid]);
  if (!locked.rows[0]) return undefined;
  return (await client.query<StoredIncident>(`SELECT ${INCIDENT_COLUMNS} FROM incidents i WHERE i.id = $1`, [locked.rows[0].id])).rows[0];
}

async function lockAlert(client: PoolClient, projectId: string, iid: number): Promise<StoredAlert | undefined> {
  const result = await client.query<AlertRow>(`SELECT ${ALERT_COLUMNS} FROM ${ALERTS_WITH_SILENCE} WHERE a.project_id = $1 AND a.iid = $2 FOR UPDATE OF a`, [projectId, iid]);
  return result.rows[0] && storedAlert(result.rows[0]);
}

/** Inserts an incident with the project's next iid (the counter row stays locked until commit, so iids are given in commit order). */
async function insertIncident(
  client: PoolClient,
  projectId: string,
  fields: IncidentFields,
  createdByUserId: string | null,
  createdByAlertId: string | null,
  now: Date,
): Promise<StoredIncident> {
  const counter = await client.query<{ last_iid: number }>(
    `INSERT INTO incident_iid_counters (project_id, last_iid) VALUES ($1, 1)
     ON CONFLICT (project_id) DO UPDATE SET last_iid = incident_iid_counters.last_iid + 1 RETURNING last_iid`,
    [projectId],
  );
  const inserted = await client.query<{ id: string }>(
    `INSERT INTO incidents (project_id, iid, title, description, severity, status, created_by_user_id, created_by_alert_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5::alert_severity, 'open', $6, $7, $8, $8) RETURNING id`,
    [projectId, counter.rows[0].last_iid, fields.title, fields.description, fields.severity, createdByUserId, createdByAlertId, now],
  );
  return {
    id: inserted.rows[0].id,
    project_id: projectId,
    iid: counter.rows[0].last_iid,
    ...fields,
    status: 'open',
    created_by_user_id: createdByUserId,
    created_by_alert_id: createdByAlertId,
    created_by_alert_iid: null,
    alert_iids: [],
    closed_at: null,
    created_at: now,
    updated_at: now,
  };
}

/** Timeline entries, incident events and any further statements, in the command's transaction. */
async function writeRecords(client: PoolClient, entries: readonly ActivityEntryOut[], events: readonly IncidentEventOut[], more: readonly string[] = []): Promise<void> {
  const statements = [...activityStatements(entries), ...incidentEventStatements(events), ...more];
  if (statements.length > 0) await client.query(statements.join(';\n'));
}
