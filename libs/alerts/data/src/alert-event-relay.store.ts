import { Client } from 'pg';
import { OUTBOX_CHANNEL, OutboxRow } from './alert-event-outbox';

/** Session advisory lock that makes one processor instance the relay at a time. */
const RELAY_LEADER_LOCK = 7_311_202_402;

/**
 * The relay's own database session: leadership (a session advisory lock, released when the session
 * ends, so a crashed leader is replaced), LISTEN for new outbox rows, and reading rows by id.
 */
export class AlertEventRelayStore {
  private client: Client | undefined;
  private waiting: (() => void) | undefined;
  private notified = false;

  constructor(private readonly databaseUrl: string) {}

  /** Connects and tries to become the leader; false when another session leads. */
  async tryLead(): Promise<boolean> {
    const client = new Client({ connectionString: this.databaseUrl, application_name: 'alert-processor-event-relay' });
    client.on('error', () => undefined);
    await client.connect();
    try {
      const result = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [RELAY_LEADER_LOCK]);
      if (!result.rows[0].locked) {
        await client.end();
        return false;
      }
      client.on('notification', () => this.wake());
      await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
      this.client = client;
      return true;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  /** Outbox rows with id >= fromId, in id order. */
  async read(fromId: bigint, limit: number): Promise<OutboxRow[]> {
    const result = await this.session().query<OutboxRow>(
      'SELECT id, project_id, iid, value::text AS value FROM alert_event_outbox WHERE id >= $1 ORDER BY id LIMIT $2',
      [fromId.toString(), limit],
    );
    return result.rows;
  }

  /** The id the next outbox row will get. */
  async nextOutboxId(): Promise<bigint> {
    const result = await this.session().query<{ next: string }>(
      `SELECT (CASE WHEN is_called THEN last_value + 1 ELSE last_value END)::text AS next FROM alert_event_outbox_id_seq`,
    );
    return BigInt(result.rows[0].next);
  }

  /**
   * Removes published rows, ids in [fromId, belowId), once their position is committed in Kafka:
   * they are never read again (the position lives in Kafka), and the outbox stays small. The range
   * is bounded below so that each deletion walks only its own rows, not the index entries of every
   * row deleted before and not yet vacuumed (an open-ended `id < belowId` made the deletion the
   * database's costliest statement under load). fromId 0 removes everything below belowId, left
   * over by an earlier leader that crashed before its deletion.
   */
  async removePublished(fromId: bigint, belowId: bigint): Promise<void> {
    await this.session().query('DELETE FROM alert_event_outbox WHERE id >= $1 AND id < $2', [fromId.toString(), belowId.toString()]);
  }

  /** Resolves on a NOTIFY from a committed outbox write, or after `timeoutMs`. */
  waitForRows(timeoutMs: number): Promise<void> {
    if (this.notified) {
      this.notified = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake(), timeoutMs);
      this.waiting = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Ends the session, which also gives up leadership. */
  async release(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.wake();
    if (client) await client.end().catch(() => undefined);
  }

  /** Ends a pending waitForRows at once (used when stopping). */
  wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting();
    else this.notified = true;
  }

  private session(): Client {
    if (!this.client) throw new Error('The event relay is not leading');
    return this.client;
  }
}
