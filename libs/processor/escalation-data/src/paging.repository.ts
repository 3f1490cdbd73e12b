import { AlertsDatabase, ScriptedTransaction } from '@alert-ingestion/alerts-data';
import { PagingChanges, PagingState, UserPaging } from '@alert-ingestion/escalation-domain';
import { isUniqueViolation } from '@alert-ingestion/sql';
import {
  CONTACT_METHOD_COLUMNS,
  contactMethod,
  ContactMethodRow,
  NOTIFICATION_RULE_COLUMNS,
  notificationRule,
  NotificationRuleRow,
} from './escalation-rows';

/** What the reads below run on: the pool, or a command's transaction. */
type SqlClient = Pick<ScriptedTransaction, 'query'>;

/** What an edit made: the contact method or notification rule it created (with a webhook's secret, shown once). */
export interface PagingEditAnswer {
  contactMethodId?: string;
  notificationRuleId?: string;
}

/**
 * How users are paged (docs/api-guide.md "Paging"): their contact methods, notification rules and
 * notice setting. An edit locks the user's settings row (made on their first edit) and reads the
 * rest, for the one command of every edit (planPagingEdit); the engine reads many users at once.
 */
export class PagingRepository {
  constructor(private readonly database: AlertsDatabase) {}

  /** A user's paging, locked for an edit: their settings row first (so edits of one user take turns), then their methods and rules. */
  async lockForEdit(transaction: ScriptedTransaction, userId: string): Promise<PagingState> {
    await transaction.query('INSERT INTO user_paging_settings (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING', [userId]);
    const { rows } = await transaction.query<{ status_notices: boolean }>('SELECT status_notices FROM user_paging_settings WHERE user_id = $1 FOR UPDATE', [userId]);
    const paging = (await readPaging(transaction, [userId])).get(userId) ?? { userId, methods: [], rules: [] };
    return { ...paging, statusNotices: rows[0].status_notices };
  }

  /** Writes an edit's rows; answers what it created. */
  async writeEdit(transaction: ScriptedTransaction, userId: string, changes: PagingChanges | null): Promise<PagingEditAnswer> {
    if (!changes) return {};
    const answer: PagingEditAnswer = {};
    if (changes.methodInsert) {
      const { type, name, address, secret } = changes.methodInsert;
      const { rows } = await transaction.query<{ id: string }>(
        'INSERT INTO user_contact_methods (user_id, type, name, address, secret) VALUES ($1, $2, $3, $4, $5) RETURNING id::text AS id',
        [userId, type, name, address, secret],
      );
      answer.contactMethodId = rows[0].id;
    }
    if (changes.methodDelete) await transaction.query('DELETE FROM user_contact_methods WHERE id = $1 AND user_id = $2', [changes.methodDelete, userId]);
    if (changes.ruleInsert) {
      const { rows } = await transaction.query<{ id: string }>(
        'INSERT INTO user_notification_rules (user_id, contact_method_id, after_minutes) VALUES ($1, $2, $3) RETURNING id::text AS id',
        [userId, changes.ruleInsert.contactMethodId, changes.ruleInsert.afterMinutes],
      );
      answer.notificationRuleId = rows[0].id;
    }
    if (changes.ruleDelete) await transaction.query('DELETE FROM user_notification_rules WHERE id = $1 AND user_id = $2', [changes.ruleDelete, userId]);
    if (changes.statusNotices !== undefined) {
      await transaction.query('UPDATE user_paging_settings SET status_notices = $2, updated_at = now() WHERE user_id = $1', [userId, changes.statusNotices]);
    }
    return answer;
  }

  /** A user's contact methods, oldest first, with when each was made. */
  async methods(userId: string): Promise<ContactMethodRow[]> {
    const { rows } = await this.database.pool.query<ContactMethodRow>(`SELECT ${CONTACT_METHOD_COLUMNS} FROM user_contact_methods m WHERE m.user_id = $1 ORDER BY m.id`, [userId]);
    return rows;
  }

  /** A user's contact method with its secret (a webhook's), for a test page. */
  async methodWithSecret(userId: string, methodId: string): Promise<(ContactMethodRow & { secret: string | null }) | undefined> {
    const { rows } = await this.database.pool.query<ContactMethodRow & { secret: string | null }>(
      `SELECT ${CONTACT_METHOD_COLUMNS}, m.secret FROM user_contact_methods m WHERE m.user_id = $1 AND m.id = $2`,
      [userId, methodId],
    );
    return rows[0];
  }

  /** A user's notification rules, by minutes. */
  async rules(userId: string): Promise<NotificationRuleRow[]> {
    const { rows } = await this.database.pool.query<NotificationRuleRow>(
      `SELECT ${NOTIFICATION_RULE_COLUMNS} FROM user_notification_rules r WHERE r.user_id = $1 ORDER BY r.after_minutes, r.id`,
      [userId],
    );
    return rows;
  }

  /** Whether a user wants notices (no settings yet: no). */
  async statusNotices(userId: string): Promise<boolean> {
    const { rows } = await this.database.pool.query<{ status_notices: boolean }>('SELECT status_notices FROM user_paging_settings WHERE user_id = $1', [userId]);
    return rows[0]?.status_notices ?? false;
  }

  /** Which of these users want notices. */
  async noticeUsers(userIds: readonly string[]): Promise<Set<string>> {
    const { rows } = await this.database.pool.query<{ user_id: string }>('SELECT user_id::text AS user_id FROM user_paging_settings WHERE status_notices AND user_id = ANY($1::bigint[])', [[...userIds]]);
    return new Set(rows.map((row) => row.user_id));
  }

  /** The paging of each user (a user with no contact method is missing). */
  paging(userIds: readonly string[]): Promise<Map<string, UserPaging>> {
    return readPaging(this.database.pool, userIds);
  }
}

/** Each user's contact methods and notification rules, in two queries; users with no method are left out. */
export async function readPaging(client: SqlClient, userIds: readonly string[]): Promise<Map<string, UserPaging>> {
  const ids = [...new Set(userIds)];
  const paging = new Map<string, UserPaging>();
  if (ids.length === 0) return paging;
  const [methods, rules] = await Promise.all([
    client.query<ContactMethodRow>(`SELECT ${CONTACT_METHOD_COLUMNS} FROM user_contact_methods m WHERE m.user_id = ANY($1::bigint[]) ORDER BY m.id`, [ids]),
    client.query<NotificationRuleRow>(`SELECT ${NOTIFICATION_RULE_COLUMNS} FROM user_notification_rules r WHERE r.user_id = ANY($1::bigint[]) ORDER BY r.id`, [ids]),
  ]);
  for (const row of methods.rows) {
    const user = paging.get(row.user_id) ?? paging.set(row.user_id, { userId: row.user_id, methods: [], rules: [] }).get(row.user_id)!;
    user.methods.push(contactMethod(row));
  }
  for (const row of rules.rows) paging.get(row.user_id)?.rules.push(notificationRule(row));
  return paging;
}

/** An edit lost a race for a unique name or address to another transaction of the same user: run again, its plan sees the winner's. */
export function lostPagingEditRace(error: unknown): boolean {
  return isUniqueViolation(error, 'user_contact_methods_user_id_name_key') || isUniqueViolation(error, 'user_contact_methods_user_id_type_address_key');
}
