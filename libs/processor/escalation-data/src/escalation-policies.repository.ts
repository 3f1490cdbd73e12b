import { AlertsDatabase, ScriptedTransaction } from '@alert-ingestion/alerts-data';
import { PolicyChanges, PolicyState, StoredPolicy } from '@alert-ingestion/escalation-domain';
import { policyOf, rulesJson } from './escalation-rows';

/** A session advisory lock class of the escalation rooms: (class, project id) serialises the edits of one project's on-call setup. */
export const ONCALL_SETUP_LOCK_CLASS = 0x6573_6361; // 'esca'

/** What the reads below run on: the pool, or a command's transaction. */
type SqlClient = Pick<ScriptedTransaction, 'query'>;

interface PolicyRow {
  rules: Parameters<typeof policyOf>[0]['rules'];
  repeat: number;
  created_at: Date;
  updated_at: Date;
}

/**
 * Escalation policies (docs/api-guide.md "Escalation policies") and their webhooks' secrets: what an
 * edit is decided on, with the project's on-call setup locked (a transaction advisory lock, which
 * the configuration document's apply takes too), and its write.
 */
export class EscalationPoliciesRepository {
  constructor(private readonly database: AlertsDatabase) {}

  /**
   * Locks the project's on-call setup for the rest of the transaction and reads what a policy edit
   * is decided on (members are the caller's: access control reads them).
   */
  async lockForEdit(transaction: ScriptedTransaction, projectId: string, members: ReadonlyMap<string, string>): Promise<PolicyState> {
    await lockOncallSetup(transaction, projectId);
    const [stored, schedules, urls] = await Promise.all([
      readPolicy(transaction, projectId),
      scheduleNames(transaction, projectId),
      transaction.query<{ url: string }>('SELECT url FROM escalation_webhook_secrets WHERE project_id = $1', [projectId]),
    ]);
    return { stored, directory: { schedules, members }, knownUrls: new Set(urls.rows.map((row) => row.url)) };
  }

  /** Writes a policy edit's rows: the policy (created, replaced or deleted) and new secrets. */
  async write(transaction: ScriptedTransaction, projectId: string, changes: PolicyChanges | null): Promise<void> {
    if (!changes) return;
    if (changes.policy === null) await transaction.query('DELETE FROM escalation_policies WHERE project_id = $1', [projectId]);
    else if (changes.policy) {
      await transaction.query(
        `INSERT INTO escalation_policies (project_id, rules, repeat) VALUES ($1, $2, $3)
         ON CONFLICT (project_id) DO UPDATE SET rules = EXCLUDED.rules, repeat = EXCLUDED.repeat, updated_at = now()`,
        [projectId, JSON.stringify(rulesJson(changes.policy.rules)), changes.policy.repeat],
      );
    }
    for (const { url, secret } of changes.secrets) {
      await transaction.query(
        `INSERT INTO escalation_webhook_secrets (project_id, url, secret) VALUES ($1, $2, $3)
         ON CONFLICT (project_id, url) DO UPDATE SET secret = EXCLUDED.secret, created_at = now()`,
        [projectId, url, secret],
      );
    }
  }

  /** The project's policy, if it has one. */
  find(projectId: string): Promise<StoredPolicy | undefined> {
    return readPolicy(this.database.pool, projectId);
  }

  /** The project's schedules, id to name (what a policy may name). */
  schedules(projectId: string): Promise<Map<string, string>> {
    return scheduleNames(this.database.pool, projectId);
  }

  /**
   * Who a policy can page through its schedules: every participant of their rotations as they are
   * now, and every member of an override that has not ended. Read from the on-call tables.
   */
  async scheduleParticipants(scheduleIds: readonly string[]): Promise<string[]> {
    if (scheduleIds.length === 0) return [];
    const { rows } = await this.database.pool.query<{ user_id: string }>(
      `SELECT DISTINCT p->>'id' AS user_id FROM oncall_rotation_versions v JOIN oncall_rotations r ON r.id = v.rotation_id, jsonb_array_elements(v.participants) p
       WHERE r.schedule_id = ANY($1::bigint[]) AND r.deleted_at IS NULL AND v.effective_until IS NULL
       UNION
       SELECT DISTINCT user_id::text FROM oncall_overrides WHERE schedule_id = ANY($1::bigint[]) AND ends_at > now()`,
      [[...scheduleIds]],
    );
    return rows.map((row) => row.user_id);
  }

  /** Whether any project has a policy (the escalation consumer reads events only then, or while a run goes on). */
  async anyPolicy(): Promise<boolean> {
    const { rows } = await this.database.pool.query<{ any: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM escalation_policies) OR EXISTS (SELECT 1 FROM alert_escalations WHERE state IN ('running', 'acknowledged')) AS any`,
    );
    return rows[0].any;
  }
}

/** Takes the project's on-call setup lock until the transaction ends: policy edits and the configuration document's apply take turns. */
export async function lockOncallSetup(transaction: SqlClient, projectId: string): Promise<void> {
  await transaction.query('SELECT pg_advisory_xact_lock($1, $2::int)', [ONCALL_SETUP_LOCK_CLASS, Number(BigInt(projectId) % 2147483647n)]);
}

export async function readPolicy(client: SqlClient, projectId: string): Promise<StoredPolicy | undefined> {
  const { rows } = await client.query<PolicyRow>('SELECT rules, repeat, created_at, updated_at FROM escalation_policies WHERE project_id = $1', [projectId]);
  const row = rows[0];
  return row && { policy: policyOf(row), createdAt: row.created_at.getTime(), updatedAt: row.updated_at.getTime() };
}

export async function scheduleNames(client: SqlClient, projectId: string): Promise<Map<string, string>> {
  const { rows } = await client.query<{ id: string; name: string }>('SELECT id::text AS id, name FROM oncall_schedules WHERE project_id = $1', [projectId]);
  return new Map(rows.map((row) => [row.id, row.name]));
}
