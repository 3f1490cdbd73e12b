import { AlertsDatabase, ProcessedRawAlertsRetention } from '@alert-ingestion/alerts-data';
import { EscalationPoliciesRepository, EscalationsRepository } from '@alert-ingestion/escalation-data';
import { OncallHandoffsRepository } from '@alert-ingestion/oncall-data';
import { createTestDatabase, TestDatabase } from '@alert-ingestion/testing';
import { AlertNotificationsRepository, AlertSettingsRepository } from '@alert-ingestion/workflow-data';
import { Client } from 'pg';

/** Rows churned through each table the pollers read (claimed and settled, or swept) before their statements run. */
const CHURNED = 100_000;

/** A plan node of auto_explain's JSON. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

interface LoggedPlan {
  'Query Text': string;
  Plan: PlanNode;
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

/**
 * Tables whose rows are updated or deleted in bulk (claims settled, sweeps), and which a poller
 * reads every round: none of them may be read by a sequential or parallel scan.
 */
const CHURNED_TABLES = ['alert_notifications', 'alert_escalations', 'escalation_pages', 'processed_raw_alerts', 'oncall_schedules'];

/**
 * The processor's pollers' statements as the code runs them, through a pool whose sessions log
 * every statement's plan (auto_explain, as a notice to the client), after 100,000 rows were
 * churned through each table they read, with autovacuum off (as on the test server).
 */
describe('the processor pollers with 100,000 dead rows (real PostgreSQL)', () => {
  let database: TestDatabase;
  let alerts: AlertsDatabase;
  const plans: LoggedPlan[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const churn = new Client({ connectionString: database.url });
    await churn.connect();
    try {
      // Settled claims: every notification, run and page was due once and is settled now; every
      // idempotency answer swept; the schedule's row moved at each handoff.
      await churn.query(`INSERT INTO projects (path, tier, updated_at) VALUES ('poller-plans', 'premium', now())`);
      await churn.query(
        `INSERT INTO alerts (project_id, iid, integration_id, title, severity, started_at, payload)
         SELECT (SELECT min(id) FROM projects), n, 1, 'alert', 'critical', now(), '{}' FROM generate_series(1, ${CHURNED}) n`,
      );
      await churn.query(
        `INSERT INTO alert_notifications (project_id, alert_id, user_id, recipient, reason, next_attempt_at, event_id)
         SELECT project_id, id, 1, 'member' || (id % 50) || '@example.com', 'new', now(), 'event-' || id FROM alerts`,
      );
      await churn.query(`UPDATE alert_notifications SET status = 'sent', sent_at = now()`);
      await churn.query(
        `INSERT INTO alert_escalations (project_id, alert_id, run, started_at, started_by_event, policy, state, next_loop, next_rule, next_due_at)
         SELECT project_id, id, 1, now(), 'event-' || id, '{}', 'running', 0, 0, now() FROM alerts`,
      );
      await churn.query(
        `INSERT INTO escalation_pages (escalation_id, project_id, alert_id, kind, loop, method, address, idempotency_key, due_at, next_attempt_at)
         SELECT id, project_id, alert_id, 'page', 0, 'webhook', 'https://example.com/hook', 'page-' || id, now(), now() FROM alert_escalations`,
      );
      await churn.query(`UPDATE alert_escalations SET state = 'ended', next_loop = NULL, next_rule = NULL, next_due_at = NULL`);
      await churn.query(`UPDATE escalation_pages SET status = 'sent'`);
      await churn.query(
        `INSERT INTO processed_raw_alerts (request_id, project_id, result, processed_at)
         SELECT gen_random_uuid(), 1, '{"alerts":[]}', now() - interval '30 days' FROM generate_series(1, ${CHURNED})`,
      );
      await churn.query(`DELETE FROM processed_raw_alerts`);
      await churn.query(
        `INSERT INTO oncall_schedules (project_id, name, time_zone, published_until, next_check_at)
         SELECT min(id), 'primary', 'UTC', now(), now() + interval '1 hour' FROM projects`,
      );
      for (let handoff = 0; handoff < 200; handoff++) await churn.query(`UPDATE oncall_schedules SET next_check_at = next_check_at + interval '1 minute'`);
    } finally {
      await churn.end();
    }

    const explained = new URL(database.url);
    explained.searchParams.set(
      'options',
      '-c session_preload_libraries=auto_explain -c auto_explain.log_min_duration=0 -c auto_explain.log_format=json -c auto_explain.log_level=notice -c client_min_messages=notice',
    );
    alerts = new AlertsDatabase(explained.toString(), { maxConnections: 1 });
    alerts.pool.on('connect', (client) =>
      client.on('notice', (notice) => {
        const text = notice.message ?? '';
        const start = text.indexOf('{');
        if (text.startsWith('duration:') && start >= 0) plans.push(JSON.parse(text.slice(start)) as LoggedPlan);
      }),
    );
  });

  afterAll(async () => {
    await alerts.close();
    await database.drop();
  });

  it('read every churned table by an index, with no parallel plan', async () => {
    // Each poller's round, idle: nothing is due, no project has a setting on, nothing to sweep.
    await alerts.scriptedTransaction((transaction) => new AlertNotificationsRepository(alerts).claim(transaction, 'poller-plans', 50, 60_000));
    await alerts.scriptedTransaction((transaction) => new EscalationsRepository(alerts).claimRead(transaction, 50));
    expect(await new EscalationPoliciesRepository(alerts).anyPolicy()).toBe(false);
    const settings = new AlertSettingsRepository(alerts);
    expect(await settings.anyProjectAutomates()).toBe(false);
    expect(await settings.anyProjectSendsEmail()).toBe(false);
    expect(await new OncallHandoffsRepository(alerts).dueSchedules(10)).toEqual([]);
    expect(await new ProcessedRawAlertsRetention(alerts).removeProcessedBefore(new Date(Date.now() - 7 * 24 * 3_600_000))).toBe(0);

    const reading = plans.filter((logged) => nodes(logged.Plan).some((node) => CHURNED_TABLES.includes(node['Relation Name'] ?? '')));
    const readTables = new Set(reading.flatMap((logged) => nodes(logged.Plan).flatMap((node) => node['Relation Name'] ?? [])));
    for (const table of CHURNED_TABLES) expect(readTables).toContain(table);
    for (const logged of reading) {
      const planNodes = nodes(logged.Plan);
      const scans = planNodes.filter((node) => CHURNED_TABLES.includes(node['Relation Name'] ?? '')).map((node) => `${node['Node Type']} on ${node['Relation Name']}`);
      expect({ statement: logged['Query Text'], scans }).toEqual({ statement: logged['Query Text'], scans: scans.filter((scan) => !scan.startsWith('Seq Scan')) });
      expect(planNodes.filter((node) => node['Node Type'].startsWith('Gather'))).toEqual([]);
    }
  });
});
