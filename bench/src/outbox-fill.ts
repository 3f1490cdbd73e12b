import { ALERT_EVENT_OUTBOX } from '@alert-ingestion/alerts-data';
import { projectEventHeaders } from '@alert-ingestion/contracts';
import { writeOutbox } from '@alert-ingestion/outbox';
import { Pool } from 'pg';

/** A backlog of alert events for the relays: `events` events over `alerts` alerts of one project. */
export interface OutboxBacklog {
  events: number;
  alerts: number;
  projectId: number;
}

/** Alert event n of a backlog, of the size and shape the processor writes: its alert's first event is `alert.created`, the next ones `alert.grouped`. */
function eventValue(backlog: OutboxBacklog, n: number) {
  const iid = (n % backlog.alerts) + 1;
  return {
    type: n < backlog.alerts ? 'alert.created' : 'alert.grouped',
    occurred_at: new Date().toISOString(),
    project_id: backlog.projectId,
    alert: { iid, title: `Bench alert ${iid}`, severity: 'high', status: 'triggered', events: Math.floor(n / backlog.alerts) + 1, hosts: ['db-1'], payload: { title: `Bench alert ${iid}`, n } },
  };
}

/**
 * Writes the backlog into the alert event outbox in one transaction, 2,000 rows a statement, keyed
 * `<project>:<iid>` as the processor keys them (so the rows spread over the relay shards as alerts
 * do); every row becomes visible to the relays at once, at the commit.
 */
export async function fillAlertEventOutbox(pool: Pool, backlog: OutboxBacklog): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    for (let from = 0; from < backlog.events; from += 2_000) {
      const records = Array.from({ length: Math.min(2_000, backlog.events - from) }, (_, i) => {
        const event = eventValue(backlog, from + i);
        // With their CloudEvents headers, as the processor writes them.
        return { key: `${backlog.projectId}:${((from + i) % backlog.alerts) + 1}`, value: JSON.stringify(event), headers: projectEventHeaders(event) };
      });
      await writeOutbox(async (text, values) => (await client.query(text, [...values])).rows, ALERT_EVENT_OUTBOX, records);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
