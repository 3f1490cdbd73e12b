import { reclaimIfDue, RETAINED_TABLE_RECLAIM } from '@alert-ingestion/sql';
import { AlertsDatabase } from './alerts-database';

/**
 * How long PostgreSQL may take to count a session's changed rows in its statistics (a backend
 * flushes them at most every second while busy, and within 10 s once idle), with a margin.
 */
const STATISTICS_LAG_MS = 12_000;

/**
 * Vacuums the tables a poller updates in bulk (claims and their outcomes: each update leaves a
 * dead row version, and the poller's index walks meet them) when PostgreSQL's statistics say they
 * are due (RETAINED_TABLE_RECLAIM), without autovacuum. The poller says when it changed rows
 * (`changed`) and asks at each of its rounds (`reclaimIfDue`): it looks at most every
 * `intervalMs`, and only after changes, so an idle poller never looks.
 */
export class ChurnedTablesReclaimer {
  private changedAt: number | undefined;
  private lookedAt = 0;

  constructor(
    private readonly database: AlertsDatabase,
    private readonly tables: readonly string[],
    private readonly intervalMs = 60_000,
  ) {}

  /** Rows of the tables were updated or deleted. */
  changed(now = Date.now()): void {
    this.changedAt = now;
  }

  /** Vacuums the tables that are due, when changes call for a look; resolves the tables vacuumed. */
  async reclaimIfDue(now = Date.now()): Promise<string[]> {
    const changedAt = this.changedAt;
    if (changedAt === undefined || now - this.lookedAt < this.intervalMs) return [];
    this.lookedAt = now;
    // Changes the statistics may not count yet are looked at again at the next interval.
    if (now - changedAt >= STATISTICS_LAG_MS) this.changedAt = undefined;
    const vacuumed: string[] = [];
    for (const table of this.tables) {
      if (await reclaimIfDue(this.database.query, table, RETAINED_TABLE_RECLAIM, { truncate: false })) vacuumed.push(table);
    }
    return vacuumed;
  }
}
