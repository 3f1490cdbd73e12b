import { BackgroundLoop } from '@alert-ingestion/async';
import { randomInt } from 'node:crypto';
import { Client } from 'pg';
import { OutboxRelay, OutboxRelayLogger, OutboxRelayStatus } from './outbox-relay';
import { OutboxSharding, OutboxTable } from './outbox-table';
import { assignedShards, OutboxShard } from './shard-assignment';

export interface ShardedOutboxRelayOptions {
  databaseUrl: string;
  /** A sharded outbox (`sharding` set). */
  table: OutboxTable;
  /** Shards the outbox is split into; every instance must use the same count. */
  shardCount: number;
  /** How often an instance reads who is live and takes or gives up shards. */
  rebalanceIntervalMs: number;
  /** Prefix of every log line, e.g. "alert events". */
  name: string;
  logger: OutboxRelayLogger;
}

/** One shard as this instance sees it, for metrics. */
export interface OutboxShardStatus {
  shard: number;
  /** This instance holds the shard's leader lock. */
  leading: boolean;
  /** Records of this shard this instance published since it started. */
  published: number;
  /** The pause after a batch that was not full (OutboxRelay.lingerMs: shared by the shards this instance leads). */
  lingerMs: number;
}

/**
 * Membership of the live relay instances of a sharded outbox: each instance holds a session
 * advisory lock (lockClass + 1, its random id) on a connection of its own, so PostgreSQL itself
 * says who is live (pg_locks), and an instance that dies leaves at once, with its session.
 */
class RelayMembers {
  private client: Client | undefined;
  private id: number | undefined;
  private singleRelayExcluded = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly table: OutboxTable,
    private readonly sharding: OutboxSharding,
    private readonly applicationName: string,
  ) {}

  /**
   * Holds the table's single-relay leader lock in shared mode on the membership session, true once
   * it does: while any sharded instance holds it, a single relay (OutboxRelay without a shard, as a
   * replica of an earlier version runs it) cannot lead, and while a single relay leads, no sharded
   * instance gets it. So the two never publish at once, also during a rolling upgrade.
   */
  async excludeSingleRelay(): Promise<boolean> {
    if (this.singleRelayExcluded) return true;
    const result = await this.session().query<{ locked: boolean }>('SELECT pg_try_advisory_lock_shared($1) AS locked', [this.table.leaderLock]);
    this.singleRelayExcluded = result.rows[0].locked;
    return this.singleRelayExcluded;
  }

  /** This instance's id, once it has joined. */
  get me(): number | undefined {
    return this.client ? this.id : undefined;
  }

  async join(): Promise<number> {
    if (this.client && this.id !== undefined) return this.id;
    const client = new Client({ connectionString: this.databaseUrl, application_name: this.applicationName });
    client.on('error', () => undefined);
    await client.connect();
    try {
      for (;;) {
        const id = randomInt(1, 2 ** 31 - 1);
        const result = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS locked', [this.sharding.lockClass + 1, id]);
        if (result.rows[0].locked) {
          this.client = client;
          this.id = id;
          return id;
        }
      }
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  /** The ids of every live instance (this one included), read from the locks of this database. */
  async list(): Promise<number[]> {
    const result = await this.session().query<{ member: string }>(
      `SELECT objid::text AS member FROM pg_locks
       WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid = $1::int8::oid
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [this.sharding.lockClass + 1],
    );
    return result.rows.map((row) => Number(row.member));
  }

  async leave(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.singleRelayExcluded = false;
    if (client) await client.end().catch(() => undefined);
  }

  private session(): Client {
    if (!this.client) throw new Error('Not a member');
    return this.client;
  }
}

/**
 * The statuses of an instance's shard relays as one, with the meaning of a single relay's:
 * publishing while it leads some shard and none fails, failing while one fails, standby while it
 * leads none; behind while a shard it leads is behind; its backlog the sum over the shards it leads
 * and the oldest row's age the oldest of theirs (null when it leads none); counts summed.
 */
export function combinedStatus(statuses: readonly OutboxRelayStatus[]): OutboxRelayStatus {
  const failing = statuses.find((status) => status.state === 'failing');
  const measured = statuses.filter((status) => status.backlogRows !== null);
  const ages = statuses.flatMap((status) => (status.oldestAgeSeconds === null ? [] : [status.oldestAgeSeconds]));
  return {
    state: failing ? 'failing' : statuses.some((status) => status.state === 'publishing') ? 'publishing' : 'standby',
    behind: statuses.some((status) => status.behind),
    backlogRows: measured.length === 0 ? null : measured.reduce((sum, status) => sum + (status.backlogRows ?? 0), 0),
    oldestAgeSeconds: ages.length === 0 ? null : Math.max(...ages),
    published: statuses.reduce((sum, status) => sum + status.published, 0),
    deadLettered: statuses.reduce((sum, status) => sum + status.deadLettered, 0),
    failure: failing?.failure ?? null,
  };
}

/**
 * Publishes a sharded outbox (OutboxTable.sharding) with one OutboxRelay per shard, the shards
 * spread across the live instances: each instance leads its fair share (assignedShards: floor or
 * one more), so the outbox's publishing rate grows with the instances. Every record of a key is in
 * one shard and each shard is published in id order by one leader at a time (its advisory lock, and
 * the Kafka fencing of its transactional id), so the order per key and exactly-once hold as with
 * one relay. Every `rebalanceIntervalMs` an instance reads who is live and starts the relays of the
 * shards it should lead and stops the others (a stopped relay finishes its batch in flight, then
 * releases the lock); a started relay retries the lock until the previous owner has let go. An
 * instance that dies leaves the members with its database session, and the survivors take its
 * shards over at their next rebalance. The relays an instance leads share its transaction budget
 * (OutboxRelay.shareLinger): leading more shards spreads the same Kafka transactions per second
 * over them instead of multiplying them.
 *
 * A sharded outbox may have been published by a single relay before (an earlier version): the
 * instances keep it out (RelayMembers.excludeSingleRelay) and lead no shard while it leads, and a
 * shard relay given the single relay's producer as `predecessor` starts where it stopped.
 */
export class ShardedOutboxRelay {
  /** One relay per shard, by index, created once: a shard's counts survive its handovers. */
  readonly relays: readonly OutboxRelay[];
  private readonly members: RelayMembers;
  private readonly started = new Set<number>();
  private readonly loop = new BackgroundLoop(() => this.run());
  private lastLine: string | undefined;

  constructor(
    relayFor: (shard: OutboxShard) => OutboxRelay,
    private readonly options: ShardedOutboxRelayOptions,
  ) {
    const sharding = options.table.sharding;
    if (!sharding) throw new Error(`The outbox ${options.table.name} is not sharded`);
    if (!Number.isInteger(options.shardCount) || options.shardCount < 1) throw new Error(`A shard count must be a positive integer, not ${options.shardCount}`);
    this.relays = Array.from({ length: options.shardCount }, (_, index) => relayFor({ index, count: options.shardCount }));
    this.members = new RelayMembers(options.databaseUrl, options.table, sharding, `${options.name} relay members`);
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** The shards this instance leads at the moment. */
  leading(): number[] {
    return this.relays.flatMap((relay, shard) => (relay.leading ? [shard] : []));
  }

  shardStatuses(): OutboxShardStatus[] {
    return this.relays.map((relay, shard) => ({ shard, leading: relay.leading, published: relay.status().published, lingerMs: relay.lingerMs }));
  }

  /** The shards' statuses as one (combinedStatus). */
  status(): OutboxRelayStatus {
    return combinedStatus(this.relays.map((relay) => relay.status()));
  }

  private async run(): Promise<void> {
    const { logger, name, rebalanceIntervalMs, shardCount } = this.options;
    let failure: string | undefined;
    while (!this.loop.stopping) {
      try {
        const me = await this.members.join();
        if (await this.members.excludeSingleRelay()) {
          const members = await this.members.list();
          await this.lead(assignedShards(shardCount, members, me));
          this.say(`leading shards ${this.leadList()} of ${shardCount}, a fair share among ${members.length} live instance${members.length === 1 ? '' : 's'}`);
        } else {
          await this.lead([]);
          this.say('waiting: a single relay (an earlier version) still leads the outbox');
        }
        if (failure) logger.log(`${name}: the relay members are readable again`);
        failure = undefined;
      } catch (error) {
        // Without its membership (and the single relay kept out by it) this instance leads nothing;
        // the others take its shards over.
        const reason = error instanceof Error ? error.message : String(error);
        if (reason !== failure) logger.error(`${name}: cannot read the relay members, leading no shard until it can: ${reason}`);
        failure = reason;
        await this.lead([]);
        await this.members.leave();
      }
      await this.loop.sleep(rebalanceIntervalMs);
    }
    // The shards go first, then the membership, so the others take them over as soon as they are free.
    await this.lead([]);
    await this.members.leave();
  }

  /** Starts the relays of `shards` and stops the others. */
  private async lead(shards: readonly number[]): Promise<void> {
    const wanted = new Set(shards);
    for (const shard of wanted) {
      if (!this.started.has(shard)) {
        this.started.add(shard);
        this.relays[shard].start();
      }
    }
    const leaving = [...this.started].filter((shard) => !wanted.has(shard));
    await Promise.all(
      leaving.map(async (shard) => {
        await this.relays[shard].stop();
        this.started.delete(shard);
      }),
    );
    for (const shard of this.started) this.relays[shard].shareLinger(this.started.size);
  }

  private leadList(): string {
    return [...this.started].sort((a, b) => a - b).join(', ') || 'none';
  }

  /** Logs the assignment when it changes. */
  private say(line: string): void {
    if (line === this.lastLine) return;
    this.lastLine = line;
    this.options.logger.log(`${this.options.name}: ${line}`);
  }
}
