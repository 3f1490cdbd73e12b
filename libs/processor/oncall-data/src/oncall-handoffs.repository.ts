import { AlertsDatabase, ScriptedTransaction } from '@alert-ingestion/alerts-data';
import { OncallEvent, Topic, TOPIC_REGISTRY } from '@alert-ingestion/contracts';
import { DAY_MS, HandoffPlan, HandoffState, Participant } from '@alert-ingestion/oncall-domain';
import { outboxRecord, outboxTable, OutboxTable, writeOutbox } from '@alert-ingestion/outbox';
import { SqlQuery } from '@alert-ingestion/sql';
import { databaseNow, readTimelines } from './oncall-schedules.repository';
import { SCHEDULE_COLUMNS, ScheduleRow, storedSchedule } from './oncall-rows';

/** The processor's transactional outbox of on-call events, published to oncall.events.v1. */
export const ONCALL_EVENT_OUTBOX: OutboxTable = outboxTable('oncall_event_outbox');

/**
 * The session advisory lock of the handoff publisher's leader (HandoffPublisherLeadership), beside
 * the outbox locks of OUTBOX_ADVISORY_LOCKS (libs/shared/outbox), none of which it may share.
 */
export const HANDOFF_PUBLISHER_LOCK = 7_311_202_409;

/** How far around the instants it publishes the publisher reads a schedule (onCallAt reads whole shifts up to 400 days long). */
const TIMELINE_REACH_MS = 401 * DAY_MS;

/** A schedule's users who may be on call from now on: its live rotations' participants and the members of its overrides that have not ended. */
export interface ScheduleParticipants {
  scheduleId: string;
  projectId: string;
  userIds: string[];
}

export type PublishOutcome = { published: number } | 'gone';

/**
 * The handoff publisher's reads and writes (OncallHandoffsService): which schedules are due, who
 * takes part in them, and what publishing one schedule's changes of who is on call reads (locked)
 * and writes, for its one command.
 */
export class OncallHandoffsRepository {
  constructor(private readonly database: AlertsDatabase) {}

  /** Schedules whose next change (or an edit) is due, soonest first. */
  async dueSchedules(limit: number): Promise<Array<{ id: string; projectId: string }>> {
    const { rows } = await this.database.pool.query<{ id: string; project_id: string }>(
      'SELECT id, project_id FROM oncall_schedules WHERE next_check_at <= clock_timestamp() ORDER BY next_check_at LIMIT $1',
      [limit],
    );
    return rows.map((row) => ({ id: row.id, projectId: row.project_id }));
  }

  /** Every schedule's users who may be on call from now on (to find members who left their project). */
  async participants(): Promise<ScheduleParticipants[]> {
    const { rows } = await this.database.pool.query<{ schedule_id: string; project_id: string; user_ids: string[] }>(
      `SELECT s.id AS schedule_id, s.project_id, array_agg(DISTINCT u.user_id)::text[] AS user_ids
       FROM oncall_schedules s
       JOIN LATERAL (
         SELECT (p ->> 'id') AS user_id
         FROM oncall_rotations r JOIN oncall_rotation_versions v ON v.rotation_id = r.id, jsonb_array_elements(v.participants) p
         WHERE r.schedule_id = s.id AND r.deleted_at IS NULL AND v.effective_until IS NULL
         UNION
         SELECT o.user_id::text FROM oncall_overrides o WHERE o.schedule_id = s.id AND o.ends_at > clock_timestamp()
       ) u ON true
       GROUP BY s.id, s.project_id`,
    );
    return rows.map((row) => ({ scheduleId: row.schedule_id, projectId: row.project_id, userIds: row.user_ids }));
  }

  /**
   * What publishing a schedule's changes of who is on call is decided on (planHandoffs): the
   * schedule locked (edits wait, and take effect after this instant), its progress, and its
   * rotations and overrides around the instants to publish; undefined once it is gone. Two
   * publishers of the same schedule at once publish each change once: the second reads the first
   * one's progress.
   */
  async lockForPublishing(transaction: ScriptedTransaction, scheduleId: string, members?: ReadonlySet<string>): Promise<HandoffState | undefined> {
    const locked = await transaction.query<ScheduleRow & { published_until: Date; published_on_call: Array<{ id: string; username: string }> }>(
      `SELECT ${SCHEDULE_COLUMNS}, s.published_until, s.published_on_call FROM oncall_schedules s WHERE s.id = $1 FOR UPDATE`,
      [scheduleId],
    );
    const row = locked.rows[0];
    if (!row) return undefined;
    // Up to the last whole second before this one: an edit of this second (committed before or after
    // this read) takes effect at its start, which is then never before the instant published up to.
    const now = (await databaseNow(transaction)) - 1000;
    const publishedUntil = row.published_until.getTime();
    const timelines = await readTimelines(transaction, [scheduleId], { start: publishedUntil - TIMELINE_REACH_MS, end: now + TIMELINE_REACH_MS });
    return {
      now,
      schedule: storedSchedule(row),
      publishedUntil,
      publishedOnCall: row.published_on_call.map((user): Participant => ({ userId: String(user.id), username: user.username })),
      timeline: timelines.get(scheduleId) ?? { rotations: [], overrides: [] },
      members,
    };
  }

  /** Writes a publishing's events into the outbox and moves the schedule's progress. */
  async writePublishing(transaction: ScriptedTransaction, scheduleId: string, plan: HandoffPlan): Promise<{ answer: PublishOutcome }> {
    await writePlan(transaction, scheduleId, plan);
    return { answer: { published: plan.events.length } };
  }
}

async function writePlan(client: ScriptedTransaction, scheduleId: string, plan: HandoffPlan): Promise<void> {
  const query: SqlQuery = async <Row>(text: string, values: readonly unknown[]) => (await client.query(text, [...values])).rows as Row[];
  await writeOutbox(
    query,
    ONCALL_EVENT_OUTBOX,
    plan.events.map((event) => outboxRecord(TOPIC_REGISTRY[Topic.OncallEvents], event.key, event.value as OncallEvent.OncallEventValue)),
  );
  await client.query('UPDATE oncall_schedules SET published_until = $2, published_on_call = $3, next_check_at = $4 WHERE id = $1', [
    scheduleId,
    new Date(plan.publishedUntil),
    JSON.stringify(plan.publishedOnCall.map((user) => ({ id: user.userId, username: user.username }))),
    new Date(plan.nextCheckAt),
  ]);
}
