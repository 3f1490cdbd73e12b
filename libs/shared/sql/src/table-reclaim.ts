import { SqlQuery } from './sql-query';

/**
 * When a table whose rows are deleted or updated in bulk (an outbox, a retention sweep, claims) is
 * vacuumed by its own writer, not by autovacuum, which may be off or late under a burst: a dead
 * row costs every scan that meets it, and nothing else gives its space back.
 */
export interface ReclaimPolicy {
  /** Fewer dead rows than this are left to the next look (a VACUUM reads the whole table and its indexes). */
  minDeadRows: number;
  /** Dead rows must also be at least this share of the live ones (autovacuum's scale factor). */
  deadShareOfLive: number;
}

/** Outboxes keep a few live rows, so a few thousand dead ones are worth a VACUUM. */
export const OUTBOX_RECLAIM: ReclaimPolicy = { minDeadRows: 2_000, deadShareOfLive: 0.2 };

/** Tables that keep their rows for hours or days (idempotency answers, deliveries, claims). */
export const RETAINED_TABLE_RECLAIM: ReclaimPolicy = { minDeadRows: 10_000, deadShareOfLive: 0.2 };

/** Whether a table with these dead and live rows (PostgreSQL's statistics) is due a VACUUM. */
export function reclaimDue(rows: { dead: number; live: number }, policy: ReclaimPolicy): boolean {
  return rows.dead >= policy.minDeadRows && rows.dead >= rows.live * policy.deadShareOfLive;
}

/** A table name as SQL accepts it unquoted: the reclaim statements name only the services' own tables. */
function checkedTable(table: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(table)) throw new Error(`Not a table name: ${table}`);
  return table;
}

/** The statement reading a table's dead and live rows from PostgreSQL's statistics: no row of the table is read. */
export function rowCountsStatement(table: string): string {
  const name = checkedTable(table);
  return `SELECT pg_stat_get_dead_tuples('${name}'::regclass) AS dead, pg_stat_get_live_tuples('${name}'::regclass) AS live`;
}

/**
 * VACUUM of a table: the space of its dead rows is reused and, with `truncate`, the empty pages at
 * its end are given back. SKIP_LOCKED: when another session vacuums it already, this one does not
 * wait; PARALLEL 0: no worker processes. Giving pages back takes a moment's exclusive lock, which
 * VACUUM waits for (up to 5 s) while writers keep the table busy: so only when they are quiet.
 * Outside any transaction (VACUUM refuses to run in one).
 */
export function vacuumStatement(table: string, { truncate }: { truncate: boolean } = { truncate: true }): string {
  return `VACUUM (SKIP_LOCKED, PARALLEL 0${truncate ? '' : ', TRUNCATE false'}) ${checkedTable(table)}`;
}

/**
 * Vacuums `table` when its statistics say it is due (reclaimDue), or at once with `force`; resolves
 * whether it did. `query` must run each statement on its own, outside a transaction (a pool's
 * query does).
 */
export async function reclaimIfDue(
  query: SqlQuery,
  table: string,
  policy: ReclaimPolicy,
  options: { truncate: boolean; force?: boolean } = { truncate: true },
): Promise<boolean> {
  if (!options.force) {
    const [counts] = await query<{ dead: string; live: string }>(rowCountsStatement(table), []);
    if (!reclaimDue({ dead: Number(counts.dead), live: Number(counts.live) }, policy)) return false;
  }
  await query(vacuumStatement(table, { truncate: options.truncate }), []);
  return true;
}

/**
 * After a sweep deleted `deleted` rows of `table` (a retention sweep), vacuums it when they, or the
 * dead rows PostgreSQL's statistics count (which may not count this session's yet), make it due;
 * keeps the pages (a sweep deletes the oldest rows, at the table's start, whose space new rows
 * reuse). Resolves whether it vacuumed.
 */
export async function reclaimAfterDeleting(query: SqlQuery, table: string, deleted: number, policy: ReclaimPolicy): Promise<boolean> {
  if (deleted === 0) return false;
  const [counts] = await query<{ dead: string; live: string }>(rowCountsStatement(table), []);
  if (!reclaimDue({ dead: Math.max(Number(counts.dead), deleted), live: Number(counts.live) }, policy)) return false;
  await query(vacuumStatement(table, { truncate: false }), []);
  return true;
}
