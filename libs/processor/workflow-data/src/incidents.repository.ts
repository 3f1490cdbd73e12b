import { StoredAlert } from '@alert-ingestion/alerts-domain';
import {
  ALERT_COLUMNS,
  alertUpdateStatements,
  AlertRow,
  ALERTS_WITH_SILENCE,
  AlertsDatabase,
  INCIDENT_EVENT_OUTBOX,
  ScriptedTransaction,
  storedAlert,
} from '@alert-ingestion/alerts-data';
import { IncidentEvent, IncidentStatus, Topic, TOPIC_REGISTRY } from '@alert-ingestion/contracts';
import { OutboxRecord, outboxRecord, outboxStatements } from '@alert-ingestion/outbox';
import { likePattern, sqlLiteral } from '@alert-ingestion/sql';
import { AutomationSettings, AutomationState, IncidentChanges, IncidentEventOut, IncidentNumbering, IncidentUpdateState, StoredIncident, StoredIncidentAlert } from '@alert-ingestion/workflow-domain';

/** An incident event as an outbox record, keyed `<project_id>:<iid>` (every event of one incident in one partition, in order). */
function incidentEventRecord(event: IncidentEventOut): OutboxRecord {
  return outboxRecord(TOPIC_REGISTRY[Topic.IncidentEvents], IncidentEvent.incidentEventKey(event.projectId, event.iid), event.value);
}

/** The columns of an incident `i`, with the iids of its linked alerts and of the alert it was opened from. */
const INCIDENT_COLUMNS = `i.id, i.project_id, i.iid, i.title, i.description, i.severity::text AS severity, i.status::text AS status,
  i.created_by_user_id, i.created_by_alert_id, (SELECT c.iid FROM alerts c WHERE c.id = i.created_by_alert_id) AS created_by_alert_iid,
  i.owner_user_id, i.owner_username,
  ARRAY(SELECT l.iid FROM alerts l WHERE l.incident_id = i.id ORDER BY l.iid) AS alert_iids,
  i.closed_at, i.created_at, i.updated_at`;

/** A row read with INCIDENT_COLUMNS. */
type IncidentRow = Omit<StoredIncident, 'owner'> & { owner_user_id: string | null; owner_username: string | null };

function storedIncident({ owner_user_id, owner_username, ...incident }: IncidentRow): StoredIncident {
  return { ...incident, owner: owner_user_id === null ? null : { id: owner_user_id, username: owner_username ?? '' } };
}

export interface IncidentListQuery {
  projectId: string;
  status?: IncidentStatus;
  /** Case-insensitive text searched in title and description. */
  search?: string;
  page: number;
  perPage: number;
}

/** An alert named by its project and iid. */
export interface AlertRef {
  projectId: string;
  alertIid: number;
}

/**
 * Incidents (the processor owns `incidents`, `incident_iid_counters` and `incident_event_outbox`):
 * the API's reads, the state each incident command is decided on (read and locked in one order by
 * every command: the incident, then its alerts, then the project's iid counter), and the one writer
 * of every command's IncidentChanges. No rule lives here: the plans of workflow-domain decide.
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
    const { rows, total } = await this.database.page<IncidentRow>(
      INCIDENT_COLUMNS,
      `incidents i WHERE ${conditions.join(' AND ')}`,
      `ORDER BY i.iid DESC LIMIT ${query.perPage} OFFSET ${offset}`,
      parameters,
    );
    return { incidents: rows.map(storedIncident), total };
  }

  async countByStatus(projectId: string): Promise<Map<IncidentStatus, number>> {
    const result = await this.database.pool.query<{ status: IncidentStatus; count: string }>(
      'SELECT status::text AS status, count(*) AS count FROM incidents WHERE project_id = $1 GROUP BY status',
      [projectId],
    );
    return new Map(result.rows.map((row) => [row.status, Number(row.count)]));
  }

  async find(projectId: string, iid: number): Promise<StoredIncident | undefined> {
    const result = await this.database.pool.query<IncidentRow>(`SELECT ${INCIDENT_COLUMNS} FROM incidents i WHERE i.project_id = $1 AND i.iid = $2`, [projectId, iid]);
    return result.rows[0] && storedIncident(result.rows[0]);
  }

  /** The alerts linked to an incident (in no order: incidentAlertsView orders them); the latest event is the first payload, the latest grouped or the recovery, whichever is last. */
  async alerts(incidentId: string): Promise<StoredIncidentAlert[]> {
    const result = await this.database.pool.query<StoredIncidentAlert>(
      `SELECT a.iid, a.title, a.severity::text AS severity, a.status::text AS status, a.events, a.started_at, a.ended_at,
         GREATEST(a.started_at, a.last_grouped_at, a.ended_at) AS last_event_at
       FROM alerts a WHERE a.incident_id = $1`,
      [incidentId],
    );
    return result.rows;
  }

  /** The project's iid counter, locked, and one id for a new incident. */
  numbering(transaction: ScriptedTransaction, projectId: string): Promise<IncidentNumbering> {
    return readNumbering(transaction, new Map([[projectId, 1]]));
  }

  /** An alert of the project, locked; and the numbers an incident opened from it would take. */
  async alertForIncident(transaction: ScriptedTransaction, projectId: string, alertIid: number): Promise<{ alert: StoredAlert | undefined; numbering: IncidentNumbering }> {
    const alert = await lockAlert(transaction, projectId, alertIid);
    return { alert, numbering: await readNumbering(transaction, new Map([[projectId, 1]])) };
  }

  /** What a link is decided on: the incident, then the alert, locked. */
  async incidentAndAlert(transaction: ScriptedTransaction, projectId: string, incidentIid: number, alertIid: number): Promise<{ incident: StoredIncident | undefined; alert: StoredAlert | undefined }> {
    const incident = await lockIncident(transaction, projectId, incidentIid);
    return { incident, alert: await lockAlert(transaction, projectId, alertIid) };
  }

  /** What an update is decided on: the incident, then its linked alerts (in id order), locked. */
  async incidentWithAlerts(transaction: ScriptedTransaction, projectId: string, iid: number): Promise<IncidentUpdateState> {
    const incident = await lockIncident(transaction, projectId, iid);
    if (!incident) return { incident, linkedAlerts: [] };
    const linked = await transaction.query<AlertRow>(`SELECT ${ALERT_COLUMNS} FROM ${ALERTS_WITH_SILENCE} WHERE a.incident_id = $1 ORDER BY a.id FOR UPDATE OF a`, [incident.id]);
    return { incident, linkedAlerts: linked.rows.map(storedAlert) };
  }

  /**
   * What the automation over a chunk is decided on (planIncidentAutomation), in one round trip:
   * the switches of the chunk's projects; for the alerts `refs` names in projects with a switch on,
   * their incidents (locked first, as every command locks an incident before its alerts), then
   * those alerts and every other alert of the incidents (locked in id order, as batches lock, so
   * neither deadlocks the other), the alerts whose timeline already says why no incident was
   * opened, the iid counters of the projects that open incidents (locked in project order), and an
   * incident id for each alert without an incident.
   */
  async automationState(transaction: ScriptedTransaction, refs: readonly AlertRef[]): Promise<AutomationState> {
    const named = `(SELECT a.id FROM alerts a JOIN project_alert_settings p ON p.project_id = a.project_id AND (p.create_incident OR p.auto_close_incident)
      WHERE (a.project_id, a.iid) IN (SELECT r.project_id, r.iid FROM json_to_recordset(${sqlLiteral.json(refs.map((ref) => ({ project_id: ref.projectId, iid: ref.alertIid })))}) AS r(project_id bigint, iid int)))`;
    const linkedIncidents = `(SELECT a.incident_id FROM alerts a WHERE a.id IN ${named} AND a.incident_id IS NOT NULL)`;
    const opening = `(SELECT a.project_id FROM alerts a JOIN project_alert_settings p ON p.project_id = a.project_id AND p.create_incident WHERE a.id IN ${named} AND a.incident_id IS NULL)`;
    const projects = sqlLiteral.json([...new Set(refs.map((ref) => ref.projectId))]);
    const [settings, incidents, alerts, skipped, , counters, ids] = await transaction.step([
      `SELECT project_id::text AS project_id, create_incident, auto_close_incident, updated_at FROM project_alert_settings
       WHERE project_id IN (SELECT p.id::bigint FROM json_array_elements_text(${projects}) AS p(id))`,
      `SELECT ${INCIDENT_COLUMNS} FROM incidents i WHERE i.id IN ${linkedIncidents} ORDER BY i.id FOR UPDATE OF i`,
      `SELECT ${ALERT_COLUMNS} FROM ${ALERTS_WITH_SILENCE} WHERE a.id IN ${named} OR a.incident_id IN ${linkedIncidents} ORDER BY a.id FOR UPDATE OF a`,
      `SELECT DISTINCT alert_id::text AS alert_id FROM activity_entries WHERE alert_id IN ${named} AND kind = 'incident_skipped'`,
      `INSERT INTO incident_iid_counters (project_id, last_iid) SELECT DISTINCT project_id, 0 FROM ${opening} o ORDER BY 1 ON CONFLICT (project_id) DO NOTHING`,
      `SELECT project_id::text AS project_id, last_iid FROM incident_iid_counters WHERE project_id IN ${opening} ORDER BY project_id FOR UPDATE`,
      incidentIds(`(SELECT count(*) FROM ${opening} o)::int`),
    ]);
    return {
      settings: new Map((settings.rows as Array<AutomationSettings & { project_id: string }>).map(({ project_id, ...switches }) => [project_id, switches])),
      incidents: (incidents.rows as IncidentRow[]).map(storedIncident),
      alerts: (alerts.rows as AlertRow[]).map(storedAlert),
      skippedAlertIds: new Set(skipped.rows.map((row) => row['alert_id'] as string)),
      numbering: numberingOf(counters.rows as CounterRow[], ids.rows as Array<{ id: string }>),
    };
  }
}

/**
 * The statements writing an incident command's changes (values inlined, sent with its COMMIT):
 * the iid counters, the new incidents, the changed ones, the links (each only while the alert has
 * none: an alert has at most one incident), the alerts a close resolved, and the incident events.
 */
export function incidentChangeStatements(changes: IncidentChanges | null): string[] {
  if (!changes) return [];
  const statements: string[] = [];
  if (changes.lastIids.size > 0) {
    const counters = [...changes.lastIids].map(([project_id, last_iid]) => ({ project_id, last_iid }));
    statements.push(
      `UPDATE incident_iid_counters c SET last_iid = n.last_iid FROM json_to_recordset(${sqlLiteral.json(counters)}) AS n(project_id bigint, last_iid int) WHERE c.project_id = n.project_id`,
    );
  }
  const rows = (incidents: readonly StoredIncident[]) =>
    sqlLiteral.json(
      incidents.map((incident) => ({
        ...incident,
        owner_user_id: incident.owner?.id ?? null,
        owner_username: incident.owner?.username ?? null,
        alert_iids: undefined,
        closed_at: incident.closed_at?.toISOString() ?? null,
        created_at: incident.created_at.toISOString(),
        updated_at: incident.updated_at.toISOString(),
      })),
    );
  const columns = `id bigint, project_id bigint, iid int, title text, description text, severity text, status text, created_by_user_id bigint, created_by_alert_id bigint,
    owner_user_id bigint, owner_username text, closed_at timestamptz, created_at timestamptz, updated_at timestamptz`;
  if (changes.created.length > 0) {
    statements.push(
      `INSERT INTO incidents (id, project_id, iid, title, description, severity, status, created_by_user_id, created_by_alert_id, owner_user_id, owner_username, closed_at, created_at, updated_at)
       SELECT r.id, r.project_id, r.iid, r.title, r.description, r.severity::alert_severity, r.status::incident_status, r.created_by_user_id, r.created_by_alert_id,
         r.owner_user_id, r.owner_username, r.closed_at, r.created_at, r.updated_at
       FROM json_to_recordset(${rows(changes.created)}) AS r(${columns})`,
    );
  }
  if (changes.updated.length > 0) {
    statements.push(
      `UPDATE incidents i SET title = r.title, description = r.description, severity = r.severity::alert_severity, status = r.status::incident_status,
         owner_user_id = r.owner_user_id, owner_username = r.owner_username, closed_at = r.closed_at, updated_at = r.updated_at
       FROM json_to_recordset(${rows(changes.updated)}) AS r(${columns}) WHERE i.id = r.id`,
    );
  }
  if (changes.links.length > 0) {
    const links = changes.links.map((link) => ({ alert_id: link.alertId, incident_id: link.incidentId }));
    statements.push(
      `UPDATE alerts a SET incident_id = l.incident_id FROM json_to_recordset(${sqlLiteral.json(links)}) AS l(alert_id bigint, incident_id bigint)
       WHERE a.id = l.alert_id AND a.incident_id IS NULL`,
    );
  }
  return [...statements, ...alertUpdateStatements(changes.resolvedAlerts), ...outboxStatements(INCIDENT_EVENT_OUTBOX, changes.incidentEvents.map(incidentEventRecord))];
}

async function lockIncident(transaction: ScriptedTransaction, projectId: string, iid: number): Promise<StoredIncident | undefined> {
  const locked = await transaction.query<IncidentRow>(`SELECT ${INCIDENT_COLUMNS} FROM incidents i WHERE i.project_id = $1 AND i.iid = $2 FOR UPDATE OF i`, [projectId, iid]);
  return locked.rows[0] && storedIncident(locked.rows[0]);
}

async function lockAlert(transaction: ScriptedTransaction, projectId: string, iid: number): Promise<StoredAlert | undefined> {
  const result = await transaction.query<AlertRow>(`SELECT ${ALERT_COLUMNS} FROM ${ALERTS_WITH_SILENCE} WHERE a.project_id = $1 AND a.iid = $2 FOR UPDATE OF a`, [projectId, iid]);
  return result.rows[0] && storedAlert(result.rows[0]);
}

/** `count` (an SQL expression) ids taken from the incidents' sequence, in order. */
function incidentIds(count: string): string {
  return `SELECT s.id::text AS id FROM (SELECT nextval(pg_get_serial_sequence('incidents', 'id')) AS id FROM generate_series(1, ${count})) s ORDER BY s.id`;
}

interface CounterRow {
  project_id: string;
  last_iid: number;
}

function numberingOf(counters: readonly CounterRow[], ids: ReadonlyArray<{ id: string }>): IncidentNumbering {
  return { lastIids: new Map(counters.map((row) => [row.project_id, row.last_iid])), ids: ids.map((row) => row.id) };
}

/** The iid counters of the projects (created at 0 when missing), locked in project order, and `count` ids per project from the incidents' sequence. */
async function readNumbering(transaction: ScriptedTransaction, needed: ReadonlyMap<string, number>): Promise<IncidentNumbering> {
  const projects = sqlLiteral.json([...needed.keys()]);
  const count = [...needed.values()].reduce((sum, n) => sum + n, 0);
  const [, counters, ids] = await transaction.step<CounterRow & { id: string }>([
    `INSERT INTO incident_iid_counters (project_id, last_iid) SELECT p.id::bigint, 0 FROM json_array_elements_text(${projects}) AS p(id) ORDER BY 1 ON CONFLICT (project_id) DO NOTHING`,
    `SELECT project_id::text AS project_id, last_iid FROM incident_iid_counters WHERE project_id IN (SELECT p.id::bigint FROM json_array_elements_text(${projects}) AS p(id)) ORDER BY project_id FOR UPDATE`,
    incidentIds(String(count)),
  ]);
  return numberingOf(counters.rows, ids.rows);
}
