import { AlertsDatabase, runCommand } from '@alert-ingestion/alerts-data';
import { AlertEvent } from '@alert-ingestion/contracts';
import { withClient } from '@alert-ingestion/database';
import { createTestDatabase, TestDatabase } from '@alert-ingestion/testing';
import { planIncidentAutomation, StoredIncident } from '@alert-ingestion/workflow-domain';
import { AlertRef, incidentChangeStatements, IncidentsRepository } from '../src';

/** The `alert.created` events of triggered alerts, as the automation reads them from alerts.events.v1. */
function created(refs: readonly AlertRef[], at: Date): AlertEvent.AlertEventValue[] {
  return refs.map((ref) => ({ type: 'alert.created', occurred_at: at.toISOString(), project_id: Number(ref.projectId), alert: { iid: ref.alertIid, status: 'triggered', silenced_by: null } }) as unknown as AlertEvent.AlertEventValue);
}

/**
 * The incident automation as one command against real PostgreSQL: the repository's locked read
 * (automationState), the pure plan, the one writer (incidentChangeStatements), run by runCommand,
 * as IncidentAutomationService runs it for a chunk of alert events.
 */
describe('the incident automation command (real PostgreSQL)', () => {
  let database: TestDatabase;
  let alerts: AlertsDatabase;
  let incidents: IncidentsRepository;
  const now = new Date('2026-11-27T10:00:00.000Z');

  beforeAll(async () => {
    database = await createTestDatabase();
    alerts = new AlertsDatabase(database.url);
    incidents = new IncidentsRepository(alerts);
  });

  afterAll(async () => {
    await alerts.close();
    await database.drop();
  });

  /** Runs the automation over the creations of `refs`; resolves the incidents it opened. */
  async function openIncidentsFromAlerts(refs: readonly AlertRef[], at: Date): Promise<StoredIncident[]> {
    const result = await runCommand(alerts, {
      read: (transaction) => incidents.automationState(transaction, refs),
      plan: (state) => planIncidentAutomation(state, created(refs, at), at),
      write: (_, changes) => ({ answer: changes?.created ?? [], atCommit: incidentChangeStatements(changes) }),
    });
    if (!('answer' in result)) throw new Error('the automation was refused');
    return result.answer;
  }

  /** A project with `count` triggered alerts, iids 1..count, whose alert settings open incidents; resolves its id. */
  async function projectWithAlerts(count: number): Promise<string> {
    return withClient(database.url, async (client) => {
      const project = await client.query<{ id: string }>(`INSERT INTO projects (path, tier, updated_at) VALUES ('acme/' || gen_random_uuid(), 'premium', now()) RETURNING id`);
      const id = project.rows[0].id;
      await client.query(
        `INSERT INTO alerts (project_id, iid, integration_id, title, severity, started_at, payload)
         SELECT $1, n, 9, 'Disk full ' || n, 'high', now(), '{"title":"Disk full"}' FROM generate_series(1, $2::int) AS n`,
        [id, count],
      );
      await client.query(`INSERT INTO project_alert_settings (project_id, create_incident, updated_at) VALUES ($1, true, $2)`, [id, new Date(now.getTime() - 60_000)]);
      return id;
    });
  }

  async function stored(projectId: string) {
    return withClient(database.url, async (client) => {
      const linked = await client.query<{ alert_iid: number; incident_iid: number; created_by: number }>(
        `SELECT a.iid AS alert_iid, i.iid AS incident_iid, c.iid AS created_by
         FROM alerts a JOIN incidents i ON i.id = a.incident_id JOIN alerts c ON c.id = i.created_by_alert_id
         WHERE a.project_id = $1 ORDER BY a.iid`,
        [projectId],
      );
      const count = async (sql: string) => Number((await client.query<{ count: string }>(sql, [projectId])).rows[0].count);
      return {
        linked: linked.rows,
        incidents: await count('SELECT count(*) AS count FROM incidents WHERE project_id = $1'),
        entries: await count('SELECT count(*) AS count FROM activity_entries WHERE project_id = $1'),
        events: await count(`SELECT count(*) AS count FROM incident_event_outbox WHERE key LIKE $1 || ':%'`),
        lastIid: await count('SELECT COALESCE(max(last_iid), 0) AS count FROM incident_iid_counters WHERE project_id = $1'),
      };
    });
  }

  it('opens one incident per alert of a batch, linked to it, with its timeline entries and event; iids count up per project', async () => {
    const first = await projectWithAlerts(3);
    const second = await projectWithAlerts(1);
    const opened = await openIncidentsFromAlerts(
      [
        { projectId: first, alertIid: 2 },
        { projectId: second, alertIid: 1 },
        { projectId: first, alertIid: 1 },
        { projectId: first, alertIid: 99 },
      ],
      now,
    );
    expect(opened.map((incident) => [incident.project_id, incident.iid, incident.created_by_alert_iid])).toEqual([
      [first, 1, 1],
      [first, 2, 2],
      [second, 1, 1],
    ]);
    expect(await stored(first)).toEqual({
      linked: [
        { alert_iid: 1, incident_iid: 1, created_by: 1 },
        { alert_iid: 2, incident_iid: 2, created_by: 2 },
      ],
      incidents: 2,
      entries: 4, // per incident: incident_created on it, incident_linked on its alert
      events: 2,
      lastIid: 2,
    });
    expect(await incidents.find(first, 2)).toMatchObject({ title: 'Disk full 2', severity: 'high', status: 'open', alert_iids: [2] });
  });

  it('opens no second incident for an alert delivered again, nor when batches of the same alerts run at once', async () => {
    const project = await projectWithAlerts(40);
    const refs = Array.from({ length: 40 }, (_, index) => ({ projectId: project, alertIid: index + 1 }));
    await openIncidentsFromAlerts(refs.slice(0, 10), now);
    const batches = await Promise.all([
      openIncidentsFromAlerts(refs, now),
      openIncidentsFromAlerts([...refs].reverse(), now),
      openIncidentsFromAlerts(refs.slice(5, 30), now),
    ]);
    expect(batches.reduce((sum, batch) => sum + batch.length, 0)).toBe(30);
    const after = await stored(project);
    expect(after.incidents).toBe(40);
    expect(after.linked.map((row) => row.alert_iid)).toEqual(refs.map((ref) => ref.alertIid));
    expect(new Set(after.linked.map((row) => row.incident_iid)).size).toBe(40);
    expect(after.lastIid).toBe(40);
    expect(after.events).toBe(40);
    expect(await openIncidentsFromAlerts(refs, now)).toEqual([]);
  });
});
