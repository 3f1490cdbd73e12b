import { AlertsDatabase, ScriptedTransaction } from '@alert-ingestion/alerts-data';
import {
  EpochMs,
  Interval,
  OncallChanges,
  OncallEdit,
  OncallState,
  StoredOverride,
  StoredRotation,
  StoredSchedule,
} from '@alert-ingestion/oncall-domain';
import { OverrideState } from '@alert-ingestion/contracts';
import { isUniqueViolation } from '@alert-ingestion/sql';
import {
  OVERRIDE_COLUMNS,
  OverrideRow,
  RemovalRow,
  ROTATION_COLUMNS,
  RotationRow,
  SCHEDULE_COLUMNS,
  ScheduleRow,
  storedOverride,
  storedRotations,
  storedSchedule,
  VERSION_COLUMNS,
  versionValues,
  VersionRow,
} from './oncall-rows';

/** What an edit touched: the schedule, and the rotation or override it made or changed. */
export interface OncallEditAnswer {
  scheduleId: string;
  rotationId?: string;
  overrideId?: string;
}

/** A schedule's rotations (deleted ones too) and overrides as they bear on a window. */
export interface StoredTimeline {
  rotations: StoredRotation[];
  overrides: StoredOverride[];
}

export interface OverrideListQuery {
  scheduleId: string;
  state?: OverrideState;
  page: number;
  perPage: number;
  now: EpochMs;
}

/** Override states as conditions on `oncall_overrides o` at $2 (the time the list is asked for). */
const OVERRIDE_STATE_CONDITIONS: Record<OverrideState, string> = {
  upcoming: 'o.starts_at > $2',
  active: 'o.starts_at <= $2 AND o.ends_at > $2',
  ended: 'o.ends_at <= $2',
};

/**
 * On-call schedules, their rotations and overrides (docs/api-guide.md "On-call schedules"): what an
 * edit is decided on (locked) and its write, for the one command of every edit (oncall-feature's
 * runOncallEdit), and the reads of the views.
 */
export class OncallSchedulesRepository {
  constructor(private readonly database: AlertsDatabase) {}

  /**
   * What an edit of a project's schedule (`scheduleId` null: a new one) is decided on
   * (planOncallEdit): the schedule locked, then the database's clock read, so every change takes
   * effect at an instant after the handoff publisher's last look at the schedule and before its
   * next (it locks the same row).
   */
  lockForEdit(transaction: ScriptedTransaction, projectId: string, scheduleId: string | null, edit: OncallEdit): Promise<OncallState> {
    return readState(transaction, projectId, scheduleId, edit);
  }

  /** Writes an edit's rows and tells the publisher to look again; answers what the edit made. */
  async writeEdit(transaction: ScriptedTransaction, changes: OncallChanges | null, state: OncallState, scheduleId: string | null, edit: OncallEdit): Promise<{ answer: OncallEditAnswer }> {
    return { answer: await writeChanges(transaction, changes, state, scheduleId, edit) };
  }

  /** A page of a project's schedules, by name. */
  async list(projectId: string, page: number, perPage: number): Promise<{ schedules: StoredSchedule[]; total: number }> {
    const { rows, total } = await this.database.page<ScheduleRow>(
      SCHEDULE_COLUMNS,
      'oncall_schedules s WHERE s.project_id = $1',
      `ORDER BY s.name, s.id LIMIT ${perPage} OFFSET ${(page - 1) * perPage}`,
      [projectId],
    );
    return { schedules: rows.map(storedSchedule), total };
  }

  /** Every schedule of a project, by name (who is on call in each); in `client`'s transaction when given. */
  async all(projectId: string, client: SqlClient = this.database.pool): Promise<StoredSchedule[]> {
    const { rows } = await client.query<ScheduleRow>(`SELECT ${SCHEDULE_COLUMNS} FROM oncall_schedules s WHERE s.project_id = $1 ORDER BY s.name, s.id`, [projectId]);
    return rows.map(storedSchedule);
  }

  async find(projectId: string, scheduleId: string): Promise<StoredSchedule | undefined> {
    const { rows } = await this.database.pool.query<ScheduleRow>(`SELECT ${SCHEDULE_COLUMNS} FROM oncall_schedules s WHERE s.project_id = $1 AND s.id = $2`, [projectId, scheduleId]);
    return rows[0] && storedSchedule(rows[0]);
  }

  /** The schedule whose calendar feed has this secret (its SHA-256); a reset one names none. */
  async findByCalendarToken(projectId: string, scheduleId: string, tokenSha256: string): Promise<StoredSchedule | undefined> {
    const { rows } = await this.database.pool.query<ScheduleRow>(
      `SELECT ${SCHEDULE_COLUMNS} FROM oncall_schedules s WHERE s.project_id = $1 AND s.id = $2 AND s.calendar_token_sha256 = $3`,
      [projectId, scheduleId, tokenSha256],
    );
    return rows[0] && storedSchedule(rows[0]);
  }

  /** A schedule's rotations that are not deleted, with their current rules and removed participants. */
  async liveRotations(scheduleId: string): Promise<StoredRotation[]> {
    return (await this.liveRotationsOf([scheduleId])).get(scheduleId) ?? [];
  }

  /** Each schedule's rotations that are not deleted, with their current rules and removed participants: three queries for them all (in `client`'s transaction when given). */
  async liveRotationsOf(scheduleIds: readonly string[], client: SqlClient = this.database.pool): Promise<Map<string, StoredRotation[]>> {
    const ids = [...scheduleIds];
    const [rotations, versions, removals] = await Promise.all([
      client.query<RotationRow>(`SELECT ${ROTATION_COLUMNS} FROM oncall_rotations r WHERE r.schedule_id = ANY($1::bigint[]) AND r.deleted_at IS NULL ORDER BY r.position, r.id`, [ids]),
      client.query<VersionRow>(
        `SELECT DISTINCT ON (v.rotation_id) ${VERSION_COLUMNS} FROM oncall_rotation_versions v JOIN oncall_rotations r ON r.id = v.rotation_id
         WHERE r.schedule_id = ANY($1::bigint[]) AND r.deleted_at IS NULL ORDER BY v.rotation_id, v.effective_from DESC`,
        [ids],
      ),
      client.query<RemovalRow>(
        `SELECT p.rotation_id, p.user_id, p.username, p.removed_at FROM oncall_participant_removals p JOIN oncall_rotations r ON r.id = p.rotation_id
         WHERE r.schedule_id = ANY($1::bigint[]) AND r.deleted_at IS NULL ORDER BY p.removed_at, p.id`,
        [ids],
      ),
    ]);
    return rotationsBySchedule(ids, rotations.rows, storedRotations(rotations.rows, versions.rows, removals.rows));
  }

  /** Each schedule's rotations (deleted ones too, with the versions in force within `window`) and the overrides within it. */
  async timelines(scheduleIds: readonly string[], window: Interval): Promise<Map<string, StoredTimeline>> {
    return readTimelines(this.database.pool, scheduleIds, window);
  }

  /** The names of a schedule's rotations, deleted ones too (overrides and shifts of the past name them). */
  async rotationRefs(scheduleId: string): Promise<Array<{ id: string; name: string }>> {
    const { rows } = await this.database.pool.query<{ id: string; name: string }>('SELECT id, name FROM oncall_rotations WHERE schedule_id = $1', [scheduleId]);
    return rows;
  }

  /** A page of a schedule's overrides, newest first (highest id: ids are given in creation order). */
  async overrides(query: OverrideListQuery): Promise<{ overrides: StoredOverride[]; total: number }> {
    const where = `o.schedule_id = $1${query.state ? ` AND ${OVERRIDE_STATE_CONDITIONS[query.state]}` : ' AND $2::timestamptz IS NOT NULL'}`;
    const { rows, total } = await this.database.page<OverrideRow>(
      OVERRIDE_COLUMNS,
      `oncall_overrides o WHERE ${where}`,
      `ORDER BY o.id DESC LIMIT ${query.perPage} OFFSET ${(query.page - 1) * query.perPage}`,
      [query.scheduleId, new Date(query.now)],
    );
    return { overrides: rows.map(storedOverride), total };
  }

  async findOverride(scheduleId: string, overrideId: string): Promise<StoredOverride | undefined> {
    const { rows } = await this.database.pool.query<OverrideRow>(`SELECT ${OVERRIDE_COLUMNS} FROM oncall_overrides o WHERE o.schedule_id = $1 AND o.id = $2`, [scheduleId, overrideId]);
    return rows[0] && storedOverride(rows[0]);
  }
}

/** What the reads below run on: the pool, or a command's transaction. */
type SqlClient = Pick<ScriptedTransaction, 'query'>;

/** The rows read for `timelines`, through any client (a pool, or a transaction's). */
export async function readTimelines(client: SqlClient, scheduleIds: readonly string[], window: Interval): Promise<Map<string, StoredTimeline>> {
  const ids = [...scheduleIds];
  const [from, to] = [new Date(window.start), new Date(window.end)];
  const [rotations, versions, overrides] = await Promise.all([
    client.query<RotationRow>(`SELECT ${ROTATION_COLUMNS} FROM oncall_rotations r WHERE r.schedule_id = ANY($1::bigint[]) ORDER BY r.position, r.id`, [ids]),
    client.query<VersionRow>(
      `SELECT ${VERSION_COLUMNS} FROM oncall_rotation_versions v JOIN oncall_rotations r ON r.id = v.rotation_id
       WHERE r.schedule_id = ANY($1::bigint[]) AND v.effective_from < $3 AND (v.effective_until IS NULL OR v.effective_until > $2)
       ORDER BY v.rotation_id, v.effective_from`,
      [ids, from, to],
    ),
    client.query<OverrideRow>(
      `SELECT ${OVERRIDE_COLUMNS} FROM oncall_overrides o WHERE o.schedule_id = ANY($1::bigint[]) AND o.starts_at < $3 AND o.ends_at > $2 ORDER BY o.id`,
      [ids, from, to],
    ),
  ]);
  const bySchedule = rotationsBySchedule(ids, rotations.rows, storedRotations(rotations.rows, versions.rows, []));
  return new Map(ids.map((id) => [id, { rotations: bySchedule.get(id) ?? [], overrides: overrides.rows.filter((row) => row.schedule_id === id).map(storedOverride) }]));
}

/** Each schedule's rotations among `rotations` (read from `rows`), in the order read. */
function rotationsBySchedule(ids: readonly string[], rows: readonly RotationRow[], rotations: readonly StoredRotation[]): Map<string, StoredRotation[]> {
  const scheduleOf = new Map(rows.map((row) => [row.id, row.schedule_id]));
  return new Map(ids.map((id) => [id, rotations.filter((rotation) => scheduleOf.get(rotation.id) === id)]));
}

/**
 * The database's clock read after a transaction's locks (one clock for every processor), to the whole
 * second (the calendar feed's precision): a change takes effect from the start of its second.
 */
export async function databaseNow(client: SqlClient): Promise<EpochMs> {
  const { rows } = await client.query<{ seconds: string }>('SELECT floor(extract(epoch FROM clock_timestamp()))::text AS seconds');
  return Number(rows[0].seconds) * 1000;
}

/** The state an edit is planned on: the schedule locked (none for a create), its live rotations with all their versions, its overrides that have not ended. */
async function readState(client: ScriptedTransaction, projectId: string, scheduleId: string | null, edit: OncallEdit): Promise<OncallState> {
  const askedName = edit.kind === 'create_schedule' || edit.kind === 'update_schedule' ? edit.name?.trim() : undefined;
  const nameTaken = async () =>
    askedName !== undefined &&
    (await client.query(`SELECT 1 FROM oncall_schedules WHERE project_id = $1 AND name = $2 AND id IS DISTINCT FROM $3::bigint`, [projectId, askedName, scheduleId])).rows.length > 0;
  if (scheduleId === null) return { now: await databaseNow(client), rotations: [], overrides: [], nameTaken: await nameTaken() };
  const locked = await client.query<ScheduleRow>(`SELECT ${SCHEDULE_COLUMNS} FROM oncall_schedules s WHERE s.project_id = $1 AND s.id = $2 FOR UPDATE`, [projectId, scheduleId]);
  const now = await databaseNow(client);
  if (!locked.rows[0]) return { now, rotations: [], overrides: [], nameTaken: false };
  const targetOverride = edit.kind === 'delete_override' ? edit.overrideId : null;
  const [rotations, versions, overrides] = await Promise.all([
    client.query<RotationRow>(`SELECT ${ROTATION_COLUMNS} FROM oncall_rotations r WHERE r.schedule_id = $1 AND r.deleted_at IS NULL ORDER BY r.position, r.id`, [scheduleId]),
    client.query<VersionRow>(
      `SELECT ${VERSION_COLUMNS} FROM oncall_rotation_versions v JOIN oncall_rotations r ON r.id = v.rotation_id
       WHERE r.schedule_id = $1 AND r.deleted_at IS NULL ORDER BY v.rotation_id, v.effective_from`,
      [scheduleId],
    ),
    client.query<OverrideRow>(`SELECT ${OVERRIDE_COLUMNS} FROM oncall_overrides o WHERE o.schedule_id = $1 AND (o.ends_at > $2 OR o.id = $3::bigint) ORDER BY o.id`, [
      scheduleId,
      new Date(now),
      targetOverride,
    ]),
  ]);
  return {
    now,
    schedule: storedSchedule(locked.rows[0]),
    rotations: storedRotations(rotations.rows, versions.rows, []),
    overrides: overrides.rows.map(storedOverride),
    nameTaken: await nameTaken(),
  };
}

/** Writes an accepted edit's rows; the schedule's publisher looks at it again at once. */
async function writeChanges(client: ScriptedTransaction, changes: OncallChanges | null, state: OncallState, scheduleId: string | null, edit: OncallEdit): Promise<OncallEditAnswer> {
  const now = new Date(state.now);
  const answer: OncallEditAnswer = {
    scheduleId: scheduleId ?? '',
    ...(edit.kind === 'update_rotation' && { rotationId: edit.rotationId }),
  };
  if (!changes) return answer;
  const schedule = changes.schedule;
  if (schedule && 'insert' in schedule) {
    const { projectId, name, description, timeZone } = schedule.insert;
    // Published up to the second before: a rotation made in the schedule's first second takes effect after it.
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO oncall_schedules (project_id, name, description, time_zone, published_until, next_check_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $6, $5, $5, $5) RETURNING id`,
      [projectId, name, description, timeZone, now, new Date(state.now - 1000)],
    );
    return { scheduleId: rows[0].id };
  }
  if (schedule && 'delete' in schedule) {
    await client.query('DELETE FROM oncall_schedules WHERE id = $1', [scheduleId]);
    return answer;
  }
  if (schedule && 'update' in schedule) {
    const { name, description, timeZone } = schedule.update;
    await client.query(
      `UPDATE oncall_schedules SET name = COALESCE($2, name), description = CASE WHEN $3 THEN $4 ELSE description END, time_zone = COALESCE($5, time_zone), updated_at = $6 WHERE id = $1`,
      [scheduleId, name ?? null, description !== undefined, description ?? null, timeZone ?? null, now],
    );
  }
  if (changes.rotationInsert) {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO oncall_rotations (schedule_id, name, position, created_at, updated_at) VALUES ($1, $2, $3, $4, $4) RETURNING id`,
      [scheduleId, changes.rotationInsert.name, changes.rotationInsert.position, now],
    );
    answer.rotationId = rows[0].id;
  }
  for (const update of changes.rotationUpdates) {
    await client.query(`UPDATE oncall_rotations SET name = COALESCE($2, name), deleted_at = COALESCE($3, deleted_at), updated_at = $4 WHERE id = $1`, [
      update.id,
      update.name ?? null,
      update.deletedAt === undefined ? null : new Date(update.deletedAt),
      now,
    ]);
  }
  for (const end of changes.versionEnds) await client.query('UPDATE oncall_rotation_versions SET effective_until = $2 WHERE id = $1', [end.id, new Date(end.at)]);
  if (changes.versionDrops.length > 0) await client.query('DELETE FROM oncall_rotation_versions WHERE id = ANY($1::bigint[])', [changes.versionDrops]);
  for (const version of changes.versionInserts) {
    await client.query(
      `INSERT INTO oncall_rotation_versions (rotation_id, effective_from, time_zone, starts_at, ends_at, shift_length, shift_length_unit, active_period_start, active_period_end, participants)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [version.rotationId ?? answer.rotationId, new Date(version.effectiveFrom), ...versionValues(version)],
    );
    // A rotation whose rules changed shows when (updated_at), as a rename does.
    if (version.rotationId !== null) await client.query('UPDATE oncall_rotations SET updated_at = $2 WHERE id = $1', [version.rotationId, now]);
  }
  if (changes.overrideInsert) {
    const override = changes.overrideInsert;
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO oncall_overrides (schedule_id, rotation_id, user_id, username, starts_at, ends_at, created_by_id, created_by_username, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
      [
        scheduleId,
        override.rotationId,
        override.user.userId,
        override.user.username,
        new Date(override.start),
        new Date(override.end),
        override.createdBy?.userId ?? null,
        override.createdBy?.username ?? null,
        now,
      ],
    );
    answer.overrideId = rows[0].id;
  }
  for (const end of changes.overrideEnds) await client.query('UPDATE oncall_overrides SET ends_at = $2 WHERE id = $1', [end.id, new Date(end.at)]);
  if (changes.overrideDrops.length > 0) await client.query('DELETE FROM oncall_overrides WHERE id = ANY($1::bigint[])', [changes.overrideDrops]);
  for (const removal of changes.removals) {
    await client.query('INSERT INTO oncall_participant_removals (rotation_id, user_id, username, removed_at) VALUES ($1, $2, $3, $4)', [
      removal.rotationId,
      removal.user.userId,
      removal.user.username,
      new Date(removal.removedAt),
    ]);
  }
  if (changes.calendarTokenSha256 !== undefined) {
    await client.query('UPDATE oncall_schedules SET calendar_token_sha256 = $2, calendar_token_created_at = $3 WHERE id = $1', [scheduleId, changes.calendarTokenSha256, now]);
  }
  // Who is on call may have changed from now on: the publisher looks at the schedule at its next round.
  await client.query('UPDATE oncall_schedules SET next_check_at = LEAST(next_check_at, $2) WHERE id = $1', [scheduleId, now]);
  return answer;
}

/** An edit lost a race for a unique name to another transaction: run again, its plan sees the winner's name. */
export function lostOncallEditRace(error: unknown): boolean {
  return isUniqueViolation(error, 'oncall_schedules_project_id_name_key') || isUniqueViolation(error, 'oncall_rotations_live_name_key');
}
