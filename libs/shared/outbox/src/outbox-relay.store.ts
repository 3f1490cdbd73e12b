import { Client } from 'pg';
import { OutboxTable } from './outbox-table';
import { OutboxShard } from './shard-assignment';

/** One outbox row as the relay reads it. */
export interface OutboxRow {
  id: string;
  key: string;
  /** JSON text, published as it is; null for a tombstone. */
  value: string | null;
  /** The headers it was written with (OutboxRecord.headers); null: none. */
  headers: Record<string, string> | null;
}

/** How far the relay is behind: unpublished rows and the age of the oldest. */
export interface OutboxBacklog {
  rows: number;
  oldestAgeMs: number | null;
}

/**
 * The relay's own database session: leadership (a session advisory lock, released when the session
 * ends, so a crashed leader is replaced), LISTEN for new rows, reading and deleting rows by id. With
 * a shard, everything is limited to the shard's rows and the lock is the shard's own.
 */
export class OutboxRelayStore {
  private client: Client | undefined;
  private waiting: (() => void) | undefined;
  private notified = false;

  /** The SQL condition on `o` (the table) selecting this relay's rows: `true` unless sharded. */
  private readonly inShard: string;

  constructor(
    private readonly databaseUrl: string,
    private readonly table: OutboxTable,
    private readonly applicationName: string,
    private readonly shard?: OutboxShard,
  ) {
    if (shard && !table.sharding) throw new Error(`The outbox ${table.name} is not sharded`);
    this.inShard = shard && table.sharding ? `o.${table.sharding.keyHashColumn} % ${Math.trunc(shard.count)} = ${Math.trunc(shard.index)}` : 'true';
  }

  /** The leader lock: the table's, or (lock class, shard) for a shard's relay. */
  private leaderLock(): { sql: string; values: number[] } {
    if (this.shard && this.table.sharding) return { sql: 'pg_try_advisory_lock($1::int, $2::int)', values: [this.table.sharding.lockClass, this.shard.index] };
    return { sql: 'pg_try_advisory_lock($1)', values: [this.table.leaderLock] };
  }

  /** Connects and tries to become the leader; false when another session leads. */
  async tryLead(): Promise<boolean> {
    const client = new Client({ connectionString: this.databaseUrl, application_name: this.applicationName });
    client.on('error', () => undefined);
    await client.connect();
    try {
      const lock = this.leaderLock();
      const result = await client.query<{ locked: boolean }>(`SELECT ${lock.sql} AS locked`, lock.values);
      if (!result.rows[0].locked) {
        await client.end();
        return false;
      }
      client.on('notification', () => this.wake());
      await client.query(`LISTEN ${this.table.channel}`);
      this.client = client;
      return true;
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  /** Rows with id >= fromId, in id order. */
  async read(fromId: bigint, limit: number): Promise<OutboxRow[]> {
    const result = await this.session().query<OutboxRow>(
      // Ordered by the bigint column (`o.id`), not by the text the row is read as.
      `SELECT o.id::text AS id, o.key, o.value::text AS value, o.headers FROM ${this.table.name} o WHERE o.id >= $1 AND ${this.inShard} ORDER BY o.id LIMIT $2`,
      [fromId.toString(), limit],
    );
    return result.rows;
  }

  /** The id the next row will get. */
  async nextId(): Promise<bigint> {
    const result = await this.session().query<{ next: string }>(
      `SELECT (CASE WHEN is_called THEN last_value + 1 ELSE last_value END)::text AS next FROM ${this.table.name}_id_seq`,
    );
    return BigInt(result.rows[0].next);
  }

  async backlog(fromId: bigint): Promise<OutboxBacklog> {
    const result = await this.session().query<{ rows: number; oldest_age_ms: number | null }>(
      `SELECT count(*)::int AS rows, (extract(epoch FROM now() - min(created_at)) * 1000)::float8 AS oldest_age_ms FROM ${this.table.name} o WHERE o.id >= $1 AND ${this.inShard}`,
      [fromId.toString()],
    );
    return { rows: result.rows[0].rows, oldestAgeMs: result.rows[0].oldest_age_ms };
  }

  /**
   * Removes published rows, ids in [fromId, belowId), once their position is committed in Kafka:
   * they are never read again (the position lives in Kafka), and the outbox stays small. The range
   * is bounded below so that each deletion walks only its own rows, not the index entries of every
   * row deleted before and not yet vacuumed. fromId 0 removes everything below belowId, left over by
   * an earlier leader that crashed before its deletion.
   */
  async removePublished(fromId: bigint, belowId: bigint): Promise<void> {
    await this.session().query(`DELETE FROM ${this.table.name} o WHERE o.id >= $1 AND o.id < $2 AND ${this.inShard}`, [fromId.toString(), belowId.toString()]);
  }

  /** Resolves on a NOTIFY from a committed write, or after `timeoutMs`. */
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

  /** Ends a pending waitForRows at once (a notification, or stopping). */
  wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting();
    else this.notified = true;
  }

  private session(): Client {
    if (!this.client) throw new Error('The outbox relay is not leading');
    return this.client;
  }
}
