import { reclaimAfterDeleting, RETAINED_TABLE_RECLAIM } from '@alert-ingestion/sql';
import { AlertsDatabase } from './alerts-database';

/**
 * Removes idempotency records (processed_raw_alerts) older than a cut-off. A record only matters
 * while Kafka may still redeliver its message, i.e. within alerts.raw.v1's retention; past that it
 * is dead weight in a table that gains a row per receive request.
 */
export class ProcessedRawAlertsRetention {
  constructor(private readonly database: AlertsDatabase) {}

  /**
   * Deletes records processed before `cutoff`, at most `chunkSize` per statement (short
   * transactions beside the batch writes), until none is left; returns how many were deleted.
   */
  async removeProcessedBefore(cutoff: Date, chunkSize = 10_000): Promise<number> {
    let removed = 0;
    for (;;) {
      const result = await this.database.pool.query(
        `DELETE FROM processed_raw_alerts WHERE request_id IN (
           SELECT request_id FROM processed_raw_alerts WHERE processed_at < $1 ORDER BY processed_at LIMIT $2
         )`,
        [cutoff, chunkSize],
      );
      removed += result.rowCount ?? 0;
      if ((result.rowCount ?? 0) < chunkSize) break;
    }
    // With autovacuum off or late, the swept rows' space is reused only once vacuumed.
    await reclaimAfterDeleting(this.database.query, 'processed_raw_alerts', removed, RETAINED_TABLE_RECLAIM);
    return removed;
  }
}
