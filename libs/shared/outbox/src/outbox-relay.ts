import { BackgroundLoop } from '@alert-ingestion/async';
import { DeadLetter, OutboxDeadLetter, Topic } from '@alert-ingestion/contracts';
import { describeKafkaError, isRecordRejection, TransactionalTopicProducer } from '@alert-ingestion/kafka';
import { SqlQuery } from '@alert-ingestion/sql';
import { KafkaJSError } from 'kafkajs';
import { EventEmitter, once } from 'node:events';
import { OutboxRelayStore, OutboxRow } from './outbox-relay.store';
import { OutboxTable } from './outbox-table';
import { Refusal, RecordRefusals } from './record-refusals';
import { OutboxShard } from './shard-assignment';
import { RelayHealth, RelayHealthOptions, RelayLogLine, RelayState, retryDelayMs } from './relay-health';

export interface OutboxRelayLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** How a relay batches, retries and judges itself: what a service configures. */
export type OutboxRelaySettings = Pick<
  OutboxRelayOptions,
  'batchSize' | 'lingerMs' | 'pollIntervalMs' | 'initialRetryMs' | 'maxRetryMs' | 'maxAttempts' | 'stallAfterMs'
>;

export interface OutboxRelayOptions extends RelayHealthOptions {
  databaseUrl: string;
  table: OutboxTable;
  /** The topic of records the broker refuses for good (`<topic>.dlq`, an OutboxDeadLetterValue each). */
  deadLetterTopic: Topic.AlertEventsDeadLetter | Topic.IncidentEventsDeadLetter | Topic.OncallEventsDeadLetter | Topic.IntegrationsDeadLetter;
  /** Rows published per Kafka transaction. */
  batchSize: number;
  /**
   * Pause after a batch that was not full, so that a steady stream goes out in few transactions.
   * Relays that share an instance's budget (shareLinger) each pause this times their number.
   */
  lingerMs: number;
  /** Fallback poll when no NOTIFY arrives (a lost notification only delays, never loses, a record). */
  pollIntervalMs: number;
  /** First wait after a failure (doubling up to maxRetryMs), and between attempts to lead. */
  initialRetryMs: number;
  /** Attempts at a record the broker refuses (too large, malformed) before it is dead-lettered. */
  maxAttempts: number;
  /** How often the leader measures its backlog. Default 5 s. */
  backlogIntervalMs?: number;
  /**
   * How often at most the leader looks whether the outbox is due a VACUUM (OutboxRelayStore.reclaim),
   * and only after it deleted rows since its last look: an idle relay never looks. Default 10 s.
   */
  reclaimIntervalMs?: number;
  /** A query outside the relay's session, so awaitPublished also sees another instance's progress. */
  query?: SqlQuery;
  /**
   * Publish only this shard of a sharded outbox (OutboxTable.sharding), under the shard's own leader
   * lock; the producer must then have a transactional id and position group of the shard's own
   * (shardName). ShardedOutboxRelay runs one such relay per shard.
   */
  shard?: OutboxShard;
  /**
   * The producer of the relay that published the whole outbox before it was sharded (its
   * transactional id and position group). A shard that has no position of its own yet starts from
   * that relay's position, after fencing it: every row below it was published by that relay.
   */
  predecessor?: TransactionalTopicProducer;
  /** Prefix of every log line, e.g. "alert events". */
  name: string;
  logger: OutboxRelayLogger;
}

/** What the relay reports for `/healthz` and metrics. */
export interface OutboxRelayStatus {
  state: RelayState;
  /** The oldest unpublished row is older than stallAfterMs. */
  behind: boolean;
  /** Unpublished rows and the age of the oldest, as the leader last measured them (null when not leading). */
  backlogRows: number | null;
  oldestAgeSeconds: number | null;
  /** Records published and dead-lettered by this instance since it started. */
  published: number;
  deadLettered: number;
  /** Why the last attempt failed, while failing. */
  failure: string | null;
}

/**
 * The header carrying the outbox id, beside the headers the row was written with (on a public topic
 * its CloudEvents attributes, whose `ce_id` is what consumers deduplicate on).
 */
export const OUTBOX_ID_HEADER = 'outbox-id';

/**
 * How long PostgreSQL may take to count a session's deleted rows in its statistics (a backend
 * flushes them at most every second while busy, and within 10 s once idle), with a margin.
 */
const STATISTICS_LAG_MS = 12_000;

/** While this instance leads: its database session, and the next outbox id to publish once it is known. */
interface Leadership {
  store: OutboxRelayStore;
  position?: bigint;
  /** Rows this leader deleted that no VACUUM has seen yet, when it last deleted some and when it last looked. */
  deletedSinceReclaim: number;
  lastDeletedAt: number;
  reclaimLookedAt: number;
  /** A VACUUM ran while publishing (pages kept): once caught up, one VACUUM gives them back. */
  pagesToGiveBack: boolean;
}

/**
 * Publishes a transactional outbox (see OutboxTable) to its Kafka topic: every record exactly once,
 * in outbox order, which keeps the order of every key's records (and, for a compacted topic, makes
 * the last record of a key its latest state). The relay schedules; the publishing is its
 * TransactionalTopicProducer's (libs/shared/kafka).
 *
 * Why the guarantee holds:
 * - Outbox ids become visible in id order (OutboxTable.writeLock), so "every row below id P is
 *   published" is a complete position.
 * - One relay at a time: the leader holds a PostgreSQL session advisory lock; a newer leader's Kafka
 *   producer (same transactional id) fences any older one still running.
 * - Each batch of rows is published in one Kafka transaction together with the new position P, so
 *   after a crash at any point the next leader reads P back from Kafka and neither skips nor repeats
 *   a record. Published rows are then deleted. Rows are published as they were written: their
 *   values were encoded by TOPIC_REGISTRY in the writer's transaction.
 *
 * With `shard`, all of this holds per shard: the shard's rows (every record of a key is in one
 * shard) in id order, one leader per shard, a position per shard.
 *
 * One record never holds back the others: when the broker refuses a batch for its records (too
 * large, malformed), the rows are sent one per transaction to find the refused one, which is tried
 * `maxAttempts` times with backoff and then goes to the dead-letter topic with the reason, in a
 * transaction that also moves the position past it (RecordRefusals). Any other failure (broker
 * down, no leader) is retried with exponential backoff and logged once per change of state, not
 * once per attempt.
 */
export class OutboxRelay {
  /** The relay's loop; stop() ends it and its sleep in progress. */
  private readonly loop = new BackgroundLoop(() => this.run());
  private leadership: Leadership | undefined;
  private published = 0;
  private deadLettered = 0;
  /** How many relays of this instance share its transaction budget, this one included (shareLinger). */
  private lingerShare = 1;
  private readonly health: RelayHealth;
  private readonly refusals: RecordRefusals;
  /** Emits `advanced` whenever the position moves (awaitPublished waits for it). */
  private readonly progress = new EventEmitter().setMaxListeners(0);

  constructor(
    private readonly producer: TransactionalTopicProducer,
    private readonly options: OutboxRelayOptions,
  ) {
    this.health = new RelayHealth(options);
    this.refusals = new RecordRefusals(options.maxAttempts);
  }

  private get stopping(): boolean {
    return this.loop.stopping;
  }

  private get position(): bigint | undefined {
    return this.leadership?.position;
  }

  /** This instance holds the leader lock (of its shard, if sharded) at the moment. */
  get leading(): boolean {
    return this.leadership !== undefined;
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    // The batch in flight finishes; the loop then sees `stopping` and gives up leadership.
    const stopped = this.loop.stop();
    this.leadership?.store.wake();
    await stopped;
  }

  /**
   * This relay is one of `relays` that run in this instance: each lingers `lingerMs` times that
   * many, so the instance starts about as many Kafka transactions per second as one relay would.
   * A transaction costs the broker and the producer about the same whatever it carries (its
   * requests, its log entries and a marker on every partition it touched), so splitting a stream
   * over more relays in one instance must not multiply the transactions.
   */
  shareLinger(relays: number): void {
    this.lingerShare = Math.max(1, relays);
  }

  /** The pause after a batch that was not full: lingerMs, times the relays sharing this instance's budget. */
  get lingerMs(): number {
    return this.options.lingerMs * this.lingerShare;
  }

  status(): OutboxRelayStatus {
    const backlog = this.health.backlog;
    return {
      state: this.health.state,
      behind: this.health.isBehind,
      backlogRows: backlog?.rows ?? null,
      oldestAgeSeconds: backlog?.oldestAgeMs == null ? (backlog ? 0 : null) : backlog.oldestAgeMs / 1000,
      published: this.published,
      deadLettered: this.deadLettered,
      failure: this.health.failure ?? null,
    };
  }

  /**
   * Resolves true once the row with this id is published (by this instance or, with `query`, by
   * whichever instance leads: rows are deleted only after they are published), false after
   * `timeoutMs`. For a change whose answer promises that its record is on the topic.
   */
  async awaitPublished(id: bigint, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    this.leadership?.store.wake();
    for (;;) {
      if (this.position !== undefined && this.position > id) return true;
      // While this instance leads, its position is the answer; another instance's progress shows
      // only in the table.
      if (this.options.query && this.position === undefined) {
        const rows = await this.options.query(`SELECT 1 FROM ${this.options.table.name} WHERE id = $1`, [id.toString()]);
        if (rows.length === 0) return true;
      }
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await once(this.progress, 'advanced', { signal: AbortSignal.timeout(Math.min(left, 25)) }).catch(() => undefined);
    }
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      const store = new OutboxRelayStore(this.options.databaseUrl, this.options.table, `${this.options.name} relay`, this.options.shard);
      let leading = false;
      try {
        leading = await store.tryLead();
      } catch (error) {
        this.report(this.health.failed(`the database is unavailable: ${messageOf(error)}`, Date.now()).line);
      }
      if (leading) {
        this.leadership = { store, deletedSinceReclaim: 0, lastDeletedAt: 0, reclaimLookedAt: 0, pagesToGiveBack: false };
        const measuring = setInterval(() => void this.measureBacklog(), this.options.backlogIntervalMs ?? 5_000);
        try {
          await this.measureBacklog();
          await this.lead(store);
        } catch (error) {
          // The database session failed: give leadership up and try again.
          this.report(this.health.failed(`the database is unavailable: ${messageOf(error)}`, Date.now()).line);
        } finally {
          clearInterval(measuring);
          this.leadership = undefined;
          await store.release();
        }
      } else if (this.health.state !== 'failing') {
        this.health.standby();
      }
      if (!this.stopping) await this.sleep(this.options.initialRetryMs);
    }
    this.health.standby();
  }

  /** Publishes while leading; a Kafka failure reconnects the producer after a backoff, any other error ends leadership. */
  private async lead(store: OutboxRelayStore): Promise<void> {
    while (!this.stopping) {
      let delayMs = 0;
      try {
        await this.producer.connect();
        const position = await this.startingPosition(store);
        if (this.leadership) this.leadership.position = position;
        delayMs = await this.publishWhileLeading(store, position);
      } catch (error) {
        if (!(error instanceof KafkaJSError)) throw error;
        delayMs = this.kafkaFailed(error);
      } finally {
        await this.producer.disconnect();
      }
      if (delayMs > 0 && !this.stopping) await this.sleep(delayMs);
    }
  }

  /** Hands batches of rows to the producer until stopped, or until Kafka fails (resolves with the wait before reconnecting). */
  private async publishWhileLeading(store: OutboxRelayStore, from: bigint): Promise<number> {
    const { batchSize, lingerMs } = this.options;
    for (let position = from; !this.stopping; position = this.position ?? position) {
      const refused = this.refusals.exhausted(position);
      if (refused) {
        const [row] = await store.read(position, 1);
        if (row?.id === refused.id) await this.deadLetter(store, row, refused);
        this.refusals.passed(position + 1n);
        continue;
      }
      const isolating = this.refusals.isolating(position);
      const rows = await store.read(position, this.refusals.batchSize(position, batchSize));
      if (rows.length === 0) {
        this.refusals.caughtUp();
        this.report(this.health.succeeded(Date.now()));
        await this.reclaimIfDue(store, { caughtUp: true });
        await store.waitForRows(this.options.pollIntervalMs);
        continue;
      }
      const first = rows[0].id;
      const last = rows[rows.length - 1].id;
      const next = BigInt(last) + 1n;
      try {
        await this.producer.publishEncoded(
          rows.map((row) => ({ key: row.key, value: row.value, headers: { ...row.headers, [OUTBOX_ID_HEADER]: row.id } })),
          next,
        );
      } catch (error) {
        if (error instanceof KafkaJSError) return this.kafkaFailed(error, { first, last });
        throw error;
      }
      this.refusals.passed(next);
      await this.advance(store, position, next, rows.length);
      this.report(this.health.succeeded(Date.now()));
      await this.reclaimIfDue(store, { caughtUp: false });
      if (!isolating && rows.length < batchSize && lingerMs > 0) await this.sleep(this.lingerMs);
    }
    return 0;
  }

  /** A Kafka failure (of publishing rows `attempt`, if given): the wait before the next attempt (0: go on at once, one row at a time). */
  private kafkaFailed(error: KafkaJSError, attempt?: { first: string; last: string }): number {
    const reason = describeKafkaError(error);
    if (!attempt || !isRecordRejection(error)) {
      const { delayMs, line } = this.health.failed(reason, Date.now());
      this.report(line);
      return delayMs;
    }
    const after = this.refusals.rejected(attempt.first, attempt.last, reason);
    if (after.action === 'isolate') {
      this.options.logger.warn(`${this.options.name}: the broker refused outbox rows ${attempt.first}..${attempt.last} (${reason}); publishing them one at a time`);
      return 0;
    }
    const { refusal } = after;
    this.options.logger.warn(`${this.options.name}: the broker refused outbox row ${refusal.id} (attempt ${refusal.attempts} of ${this.options.maxAttempts}): ${reason}`);
    return refusal.attempts >= this.options.maxAttempts ? 0 : retryDelayMs(refusal.attempts, this.options);
  }

  /** Puts a row the broker keeps refusing on the dead-letter topic, with the reason, and moves past it. */
  private async deadLetter(store: OutboxRelayStore, row: OutboxRow, refused: Refusal): Promise<void> {
    const original = row.value === null ? null : DeadLetter.deadLetterText(row.value);
    const letter: OutboxDeadLetter.OutboxDeadLetterValue = {
      reason: `refused by the broker ${refused.attempts} times: ${refused.reason}`,
      topic: this.producer.topicName,
      key: row.key,
      outbox_id: row.id,
      value: original?.text ?? null,
      value_bytes: row.value === null ? 0 : Buffer.byteLength(row.value),
      value_truncated: original !== null && original.kept < original.length,
      failed_at: new Date().toISOString(),
    };
    const position = BigInt(row.id);
    await this.producer.publish(this.options.deadLetterTopic, [{ key: row.key, value: letter, headers: { [OUTBOX_ID_HEADER]: row.id } }], position + 1n);
    this.deadLettered += 1;
    this.options.logger.error(`${this.options.name}: outbox row ${row.id} (key ${row.key}) went to ${this.producer.names.topic(this.options.deadLetterTopic)}: ${letter.reason}`);
    await this.advance(store, position, position + 1n, 0);
  }

  private async advance(store: OutboxRelayStore, from: bigint, next: bigint, published: number): Promise<void> {
    if (this.leadership) this.leadership.position = next;
    this.published += published;
    this.progress.emit('advanced');
    this.deleted(await store.removePublished(from, next));
  }

  private deleted(rows: number): void {
    if (!this.leadership || rows === 0) return;
    this.leadership.deletedSinceReclaim += rows;
    this.leadership.lastDeletedAt = Date.now();
  }

  /**
   * Vacuums the outbox when its dead rows call for it (OutboxRelayStore.reclaim), looking at most
   * every reclaimIntervalMs, after a batch or once caught up (the safety poll brings it back while
   * idle), so a burst's dead rows are gone soon after it ends; a relay that deleted nothing since
   * it last looked does not look. Pages are given back only once caught up, when writers are quiet.
   * PostgreSQL's statistics of a session's deletions may lag up to STATISTICS_LAG_MS, so deletions
   * are forgotten only once a VACUUM ran or a look came that long after the last of them.
   */
  private async reclaimIfDue(store: OutboxRelayStore, { caughtUp }: { caughtUp: boolean }): Promise<void> {
    const leadership = this.leadership;
    if (!leadership) return;
    if (caughtUp && leadership.pagesToGiveBack) {
      leadership.pagesToGiveBack = false;
      await store.reclaim({ truncate: true, force: true });
    }
    if (leadership.deletedSinceReclaim === 0) return;
    const now = Date.now();
    if (now - leadership.reclaimLookedAt < (this.options.reclaimIntervalMs ?? 10_000)) return;
    leadership.reclaimLookedAt = now;
    const settled = now - leadership.lastDeletedAt >= STATISTICS_LAG_MS;
    const vacuumed = await store.reclaim({ truncate: caughtUp });
    if (vacuumed && !caughtUp) leadership.pagesToGiveBack = true;
    if (vacuumed || settled) leadership.deletedSinceReclaim = 0;
  }

  /** The next outbox id to publish, as committed with the last published batch (0 when none was). */
  private async startingPosition(store: OutboxRelayStore): Promise<bigint> {
    let position = await this.producer.committedPosition();
    if (position === 0n && this.options.predecessor) position = await this.inheritedPosition(this.options.predecessor);
    const nextId = await store.nextId();
    if (position > nextId) {
      // A position beyond every id ever given means the database was recreated under a Kafka
      // cluster that kept the old position: start again from the first row rather than skip records.
      this.options.logger.warn(`${this.options.name}: position ${position} is beyond the next outbox id ${nextId}; the database was reset, publishing from the start`);
      position = 0n;
    }
    this.deleted(await store.removePublished(0n, position));
    return position;
  }

  /** The predecessor's committed position, once any transaction it left open is aborted (connecting fences it). */
  private async inheritedPosition(predecessor: TransactionalTopicProducer): Promise<bigint> {
    try {
      await predecessor.connect();
      return await predecessor.committedPosition();
    } finally {
      await predecessor.disconnect();
    }
  }

  private async measureBacklog(): Promise<void> {
    const store = this.leadership?.store;
    const position = this.position ?? 0n;
    if (!store) return;
    try {
      this.report(this.health.measured(await store.backlog(position)));
    } catch {
      // The session failed; the publishing loop notices and gives up leadership.
    }
  }

  private report(line: RelayLogLine | undefined): void {
    if (line) this.options.logger[line.level](`${this.options.name}: ${line.message}`);
  }

  private sleep(ms: number): Promise<void> {
    return this.loop.sleep(ms);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
