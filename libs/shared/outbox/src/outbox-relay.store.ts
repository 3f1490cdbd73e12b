import { OUTBOX_RECLAIM, reclaimIfDue } from '@alert-ingestion/sql';
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

/** How far the relay is behind: unpublished rows (at most BACKLOG_COUNT_LIMIT) and the age of the oldest. */
export interface OutboxBacklog {
  rows: number;
  oldestAgeMs: number | null;
}

/**
 * The most unpublished rows the backlog counts: the count walks the primary key from the position
 * and stops there, so measuring costs the same whatever the table holds. A backlog this large
 * reads as "at least" that many (and its age says how late the relay is).
 */
export const BACKLOG_COUNT_LIMIT = 10_000;

/**
 * Settings of every relay session. Its statements all go by the primary key (from the position,
 * in id order, limited): a sequential scan would read every dead row a burst left until VACUUM, a
 * bitmap scan every unpublished row however few the statement wants (with the shard's condition
 * PostgreSQL expects to read many), and a parallel plan would start worker processes at every
 * poll. So the session may choose none of them, whatever the statistics say (autovacuum may be off
 * or late, so they may be stale): measured with 100,000 dead rows and PostgreSQL's defaults, the
 * shard's read and its backlog count both planned a parallel bitmap scan (outbox-dead-rows.spec.ts).
 */
export const RELAY_SESSION_SETTINGS = '-c enable_seqscan=off -c enable_bitmapscan=off -c max_parallel_workers_per_gather=0';


/**
 * The statements a relay runs on an outbox's rows (of one shard, if given), in one place, so the
 * specs can look at their plans: each goes by the primary key from the relay's position, never
 * over the whole table. Parameters: `read` ($1 from id, $2 limit), `backlog` ($1 from id, $2 limit),
 * `removePublished` ($1 from id, $2 below id).
 */
export function relayStatements(table: OutboxTable, shard?: OutboxShard): { read: string; backlog: string; removePublished: string; nextId: string } {
  const inShard = shard && table.sharding ? `o.${table.sharding.keyHashColumn} % ${Math.trunc(shard.count)} = ${Math.trunc(shard.index)}` : 'true';
  return {
    // Ordered by the bigint column (`o.id`), not by the text the row is read as.
    read: `SELECT o.id::text AS id, o.key, o.value::text AS value, o.headers FROM ${table.name} o WHERE o.id >= $1 AND ${inShard} ORDER BY o.id LIMIT $2`,
    backlog: `SELECT count(*)::int AS rows, (extract(epoch FROM now() - min(b.created_at)) * 1000)::float8 AS oldest_age_ms
       FROM (SELECT o.created_at FROM ${table.name} o WHERE o.id >= $1 AND ${inShard} ORDER BY o.id LIMIT $2) b`,
    removePublished: `DELETE FROM ${table.name} o WHERE o.id >= $1 AND o.id < $2 AND ${inShard}`,
    nextId: `SELECT (CASE WHEN is_called THEN last_value + 1 ELSE last_value END)::text AS next FROM ${table.name}_id_seq`,
  };
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

  /** The statements on this relay's rows (relayStatements). */
  private readonly statements: ReturnType<typeof relayStatements>;

  constructor(
    private readonly databaseUrl: string,
    private readonly table: OutboxTable,
    private readonly applicationName: string,
    private readonly shard?: OutboxShard,
  ) {
    if (shard && !table.sharding) throw new Error(`The outbox ${table.name} is not sharded`);
    this.statements = relayStatements(table, shard);
  }

  /** The leader lock: the table's, or (lock class, shard) for a shard's relay. */
  private leaderLock(): { sql: string; values: number[] } {
    if (this.shard && this.table.sharding) return { sql: 'pg_try_advisory_lock($1::int, $2::int)', values: [this.table.sharding.lockClass, this.shard.index] };
    return { sql: 'pg_try_advisory_lock($1)', values: [this.table.leaderLock] };
  }

  /** Connects and tries to become the leader; false when another session leads. */
  async tryLead(): Promise<boolean> {
    const client = new Client({ connectionString: this.databaseUrl, application_name: this.applicationName, options: RELAY_SESSION_SETTINGS });
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
    const result = await this.session().query<OutboxRow>(this.statements.read, [fromId.toString(), limit]);
    return result.rows;
  }

  /** The id the next row will get. */
  async nextId(): Promise<bigint> {
    const result = await this.session().query<{ next: string }>(this.statements.nextId);
    return BigInt(result.rows[0].next);
  }

  /**
   * The unpublished rows from `fromId` (at most BACKLOG_COUNT_LIMIT) and the age of the oldest: a
   * walk of the primary key from the position, like `read`, never a count of the table (whose dead
   * rows, before VACUUM, may outnumber its live ones by far).
   */
  async backlog(fromId: bigint): Promise<OutboxBacklog> {
    const result = await this.session().query<{ rows: number; oldest_age_ms: number | null }>(this.statements.backlog, [fromId.toString(), BACKLOG_COUNT_LIMIT]);
    return { rows: result.rows[0].rows, oldestAgeMs: result.rows[0].oldest_age_ms };
  }

  /**
   * VACUUM of the outbox table when enough of its rows are dead (reclaimIfDue, OUTBOX_RECLAIM), so
   * its space is reused without autovacuum, and, once the relay caught up (`truncate`), its empty
   * pages are given back; resolves whether it did. With `force`, whatever its dead rows (to give
   * back the pages an earlier VACUUM without `truncate` emptied). When another relay of the table
   * (another shard) vacuums it already, this one goes on.
   */
  async reclaim(options: { truncate: boolean; force?: boolean }): Promise<boolean> {
    const client = this.session();
    return reclaimIfDue(async (text, values) => (await client.query(text, [...values])).rows, this.table.name, OUTBOX_RECLAIM, options);
  }

  /**
   * Removes published rows, ids in [fromId, belowId), once their position is committed in Kafka:
   * they are never read again (the position lives in Kafka), and the outbox stays small. The range
   * is bounded below so that each deletion walks only its own rows, not the index entries of every
   * row deleted before and not yet vacuumed. fromId 0 removes everything below belowId, left over by
   * an earlier leader that crashed before its deletion.
   */
  async removePublished(fromId: bigint, belowId: bigint): Promise<number> {
    const result = await this.session().query(this.statements.removePublished, [fromId.toString(), belowId.toString()]);
    return result.rowCount ?? 0;
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
