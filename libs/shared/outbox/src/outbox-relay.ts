import { DeadLetter, MAX_RECORD_BATCH_VALUE_BYTES, OutboxDeadLetter } from '@alert-ingestion/contracts';
import { describeKafkaError, isRecordRejection } from '@alert-ingestion/kafka';
import { SqlQuery } from '@alert-ingestion/sql';
import { Admin, Kafka, KafkaJSError, Partitioners, Producer } from 'kafkajs';
import { EventEmitter, once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { OutboxRelayStore, OutboxRow } from './outbox-relay.store';
import { OutboxTable } from './outbox-table';
import { chunksByBytes } from './record-chunks';
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
  /** The physical (prefixed) topic the outbox is published to. */
  topic: string;
  /** The physical topic of records the broker refuses for good (`<topic>.dlq`). */
  deadLetterTopic: string;
  /** Fixed per deployment: a new relay fences every older one holding the same id. */
  transactionalId: string;
  /** Consumer group under which the relay's position is committed inside its Kafka transactions. */
  positionGroupId: string;
  /** Rows published per Kafka transaction. */
  batchSize: number;
  /** Most key and value bytes per produce request (default: what a record batch of the topic holds). */
  maxBatchBytes?: number;
  /** Pause after a batch that was not full, so that a steady stream goes out in few transactions. */
  lingerMs: number;
  /** Fallback poll when no NOTIFY arrives (a lost notification only delays, never loses, a record). */
  pollIntervalMs: number;
  /** First wait after a failure (doubling up to maxRetryMs), and between attempts to lead. */
  initialRetryMs: number;
  /** Attempts at a record the broker refuses (too large, malformed) before it is dead-lettered. */
  maxAttempts: number;
  /** How often the leader measures its backlog. Default 5 s. */
  backlogIntervalMs?: number;
  /** A query outside the relay's session, so awaitPublished also sees another instance's progress. */
  query?: SqlQuery;
  /**
   * Count a batch as published only once read_committed consumers can read it. A committed Kafka
   * transaction becomes readable a moment after the commit returns (the broker writes its commit
   * markers afterwards); a relay whose publication someone waits for (awaitPublished) confirms it.
   */
  confirmReadable?: boolean;
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

/** The header carrying the outbox id, so a consumer can spot a replayed record should one ever arrive. */
export const OUTBOX_ID_HEADER = 'outbox-id';

interface Attempt {
  first: string;
  last: string;
}

/**
 * Publishes a transactional outbox (see OutboxTable) to its Kafka topic: every record exactly once,
 * in outbox order, which keeps the order of every key's records (and, for a compacted topic, makes
 * the last record of a key its latest state).
 *
 * Why the guarantee holds:
 * - Outbox ids become visible in id order (OutboxTable.writeLock), so "every row below id P is
 *   published" is a complete position.
 * - One relay at a time: the leader holds a PostgreSQL session advisory lock; a newer leader's Kafka
 *   producer (same transactional id) fences any older one still running.
 * - Each batch of rows is produced in one Kafka transaction together with the new position P,
 *   committed as the offset of a dedicated consumer group (sendOffsets): records and position become
 *   visible atomically, so after a crash at any point the next leader reads P from Kafka and neither
 *   skips nor repeats a record. Published rows are then deleted.
 * Subscribers read with isolation level read_committed (kafkajs's default) to see each record once.
 *
 * One record never holds back the others: when the broker refuses a batch for its records (too
 * large, malformed), the rows are sent one per transaction to find the refused one, which is tried
 * `maxAttempts` times with backoff and then goes to the dead-letter topic with the reason, in a
 * transaction that also moves the position past it. Any other failure (broker down, no leader) is
 * retried with exponential backoff and logged once per change of state, not once per attempt.
 */
export class OutboxRelay {
  private running: Promise<void> | undefined;
  private stopping = false;
  private store: OutboxRelayStore | undefined;
  /** The leader's admin client (positions, last stable offsets): one connection per leadership, not per batch. */
  private admin: Admin | undefined;
  /** Aborted by stop(), which ends the relay's sleep in progress. */
  private sleeps = new AbortController();
  private readonly health: RelayHealth;
  /** The next outbox id to publish, while this instance leads. */
  private position: bigint | undefined;
  /** Emits `advanced` whenever the position moves (awaitPublished waits for it). */
  private readonly progress = new EventEmitter().setMaxListeners(0);
  private published = 0;
  private deadLettered = 0;
  /** The rows of the transaction in flight. */
  private attempting: Attempt | undefined;
  /** While set, rows up to this id go one per transaction, to find the one the broker refuses. */
  private isolateThrough: bigint | undefined;
  /** The row the broker refused, how often, and why. */
  private refused: { id: string; attempts: number; reason: string } | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: OutboxRelayOptions,
  ) {
    this.health = new RelayHealth(options);
  }

  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.sleeps = new AbortController();
    this.running = this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    // The batch in flight finishes; the loop then sees `stopping` and gives up leadership.
    this.sleeps.abort();
    this.store?.wake();
    await this.running;
    this.running = undefined;
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
    this.store?.wake();
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
      const store = new OutboxRelayStore(this.options.databaseUrl, this.options.table, `${this.options.name} relay`);
      let leading = false;
      try {
        leading = await store.tryLead();
      } catch (error) {
        this.report(this.health.failed(`the database is unavailable: ${messageOf(error)}`, Date.now()).line);
      }
      if (leading) {
        this.store = store;
        const measuring = setInterval(() => void this.measureBacklog(), this.options.backlogIntervalMs ?? 5_000);
        try {
          await this.measureBacklog();
          await this.lead(store);
        } catch (error) {
          // The database session failed: give leadership up and try again.
          this.report(this.health.failed(`the database is unavailable: ${messageOf(error)}`, Date.now()).line);
        } finally {
          clearInterval(measuring);
          this.store = undefined;
          this.position = undefined;
          await store.release();
        }
      } else if (this.health.state !== 'failing') {
        this.health.standby();
      }
      if (!this.stopping) await this.sleep(this.options.initialRetryMs);
    }
    this.health.standby();
  }

  /** Publishes while leading; a Kafka failure recreates the producer after a backoff, any other error ends leadership. */
  private async lead(store: OutboxRelayStore): Promise<void> {
    while (!this.stopping) {
      const producer = this.kafka.producer({
        transactionalId: this.options.transactionalId,
        idempotent: true,
        maxInFlightRequests: 1,
        createPartitioner: Partitioners.DefaultPartitioner,
        allowAutoTopicCreation: false,
      });
      const admin = this.kafka.admin();
      let delayMs = 0;
      try {
        await producer.connect();
        await admin.connect();
        this.admin = admin;
        // Initialises the transactional producer id: older relays are fenced and their open
        // transaction aborted before the position is read.
        await (await producer.transaction()).abort();
        this.position = await this.startingPosition(store, admin);
        await this.publishWhileLeading(store, producer);
      } catch (error) {
        if (!(error instanceof KafkaJSError)) throw error;
        delayMs = this.kafkaFailed(error);
      } finally {
        this.admin = undefined;
        await producer.disconnect().catch(() => undefined);
        await admin.disconnect().catch(() => undefined);
      }
      if (delayMs > 0 && !this.stopping) await this.sleep(delayMs);
    }
  }

  private async publishWhileLeading(store: OutboxRelayStore, producer: Producer): Promise<void> {
    const { batchSize, lingerMs, maxAttempts } = this.options;
    while (!this.stopping) {
      const position = this.position as bigint;
      if (this.refused && BigInt(this.refused.id) === position && this.refused.attempts >= maxAttempts) {
        const [row] = await store.read(position, 1);
        if (row?.id === this.refused.id) await this.deadLetter(store, producer, row, this.refused);
        this.refused = undefined;
        continue;
      }
      const isolating = this.isolateThrough !== undefined && position <= this.isolateThrough;
      const rows = await store.read(position, isolating ? 1 : batchSize);
      if (rows.length === 0) {
        this.isolateThrough = undefined;
        this.report(this.health.succeeded(Date.now()));
        await store.waitForRows(this.options.pollIntervalMs);
        continue;
      }
      const next = BigInt(rows[rows.length - 1].id) + 1n;
      this.attempting = { first: rows[0].id, last: rows[rows.length - 1].id };
      await this.inTransaction(producer, next, rows, this.options.topic);
      this.attempting = undefined;
      if (this.refused && BigInt(this.refused.id) < next) this.refused = undefined;
      await this.advance(store, position, next, rows.length);
      this.report(this.health.succeeded(Date.now()));
      if (!isolating && rows.length < batchSize && lingerMs > 0) await this.sleep(lingerMs);
    }
  }

  /** A Kafka failure: the wait before the next attempt (0: go on at once, one row at a time). */
  private kafkaFailed(error: KafkaJSError): number {
    const attempt = this.attempting;
    this.attempting = undefined;
    const reason = describeKafkaError(error);
    if (!attempt || !isRecordRejection(error)) {
      const { delayMs, line } = this.health.failed(reason, Date.now());
      this.report(line);
      return delayMs;
    }
    if (attempt.first !== attempt.last) {
      this.isolateThrough = BigInt(attempt.last);
      this.options.logger.warn(`${this.options.name}: the broker refused outbox rows ${attempt.first}..${attempt.last} (${reason}); publishing them one at a time`);
      return 0;
    }
    const refused = this.refused?.id === attempt.first ? this.refused : { id: attempt.first, attempts: 0, reason };
    refused.attempts += 1;
    refused.reason = reason;
    this.refused = refused;
    this.options.logger.warn(`${this.options.name}: the broker refused outbox row ${refused.id} (attempt ${refused.attempts} of ${this.options.maxAttempts}): ${reason}`);
    return refused.attempts >= this.options.maxAttempts ? 0 : retryDelayMs(refused.attempts, this.options);
  }

  /** Sends the rows and the new position in one Kafka transaction (several produce requests if they are large). */
  private async inTransaction(producer: Producer, next: bigint, rows: readonly OutboxRow[], topic: string, value: (row: OutboxRow) => string | null = (row) => row.value): Promise<void> {
    const transaction = await producer.transaction();
    /** An offset this transaction wrote in each partition: once the last stable offset is past it, the whole transaction is readable. */
    const written = new Map<number, bigint>();
    try {
      for (const chunk of chunksByBytes(rows, this.options.maxBatchBytes ?? MAX_RECORD_BATCH_VALUE_BYTES)) {
        const metadata = await transaction.send({
          topic,
          acks: -1,
          messages: chunk.map((row) => ({ key: row.key, value: value(row), headers: { [OUTBOX_ID_HEADER]: row.id } })),
        });
        for (const { partition, baseOffset } of metadata) {
          if (baseOffset !== undefined) written.set(partition, BigInt(baseOffset));
        }
      }
      await transaction.sendOffsets({
        consumerGroupId: this.options.positionGroupId,
        topics: [{ topic: this.options.topic, partitions: [{ partition: 0, offset: next.toString() }] }],
      });
      await transaction.commit();
    } catch (error) {
      await transaction.abort().catch(() => undefined);
      throw error;
    }
    if (this.options.confirmReadable && topic === this.options.topic && this.admin) await this.confirmReadable(this.admin, written);
  }

  /** Waits (bounded) until the last stable offset of every partition written is past this transaction's records. */
  private async confirmReadable(admin: Admin, written: ReadonlyMap<number, bigint>): Promise<void> {
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline) {
      // kafkajs's admin lists offsets read_committed: `high` is the last stable offset.
      const offsets = await admin.fetchTopicOffsets(this.options.topic);
      const stable = new Map(offsets.map((offset) => [offset.partition, BigInt(offset.high)]));
      if ([...written].every(([partition, offset]) => (stable.get(partition) ?? 0n) > offset)) return;
      await delay(5);
    }
  }

  /** Puts a row the broker keeps refusing on the dead-letter topic, with the reason, and moves past it. */
  private async deadLetter(store: OutboxRelayStore, producer: Producer, row: OutboxRow, refused: { attempts: number; reason: string }): Promise<void> {
    const original = row.value === null ? null : DeadLetter.deadLetterText(row.value);
    const letter: OutboxDeadLetter.OutboxDeadLetterValue = {
      reason: `refused by the broker ${refused.attempts} times: ${refused.reason}`,
      topic: this.options.topic,
      key: row.key,
      outbox_id: row.id,
      value: original?.text ?? null,
      value_bytes: row.value === null ? 0 : Buffer.byteLength(row.value),
      value_truncated: original !== null && original.kept < original.length,
      failed_at: new Date().toISOString(),
    };
    const position = BigInt(row.id);
    await this.inTransaction(producer, position + 1n, [row], this.options.deadLetterTopic, () => JSON.stringify(letter));
    this.deadLettered += 1;
    this.options.logger.error(`${this.options.name}: outbox row ${row.id} (key ${row.key}) went to ${this.options.deadLetterTopic}: ${letter.reason}`);
    await this.advance(store, position, position + 1n, 0);
  }

  private async advance(store: OutboxRelayStore, from: bigint, next: bigint, published: number): Promise<void> {
    this.position = next;
    this.published += published;
    this.progress.emit('advanced');
    await store.removePublished(from, next);
  }

  /** The next outbox id to publish, as committed with the last published batch (0 when none was). */
  private async startingPosition(store: OutboxRelayStore, admin: Admin): Promise<bigint> {
    const [topic] = await admin.fetchOffsets({ groupId: this.options.positionGroupId, topics: [this.options.topic] });
    const offset = BigInt(topic?.partitions.find((partition) => partition.partition === 0)?.offset ?? '-1');
    let position = offset < 0n ? 0n : offset;
    const nextId = await store.nextId();
    if (position > nextId) {
      // A position beyond every id ever given means the database was recreated under a Kafka
      // cluster that kept the old position: start again from the first row rather than skip records.
      this.options.logger.warn(`${this.options.name}: position ${position} is beyond the next outbox id ${nextId}; the database was reset, publishing from the start`);
      position = 0n;
    }
    await store.removePublished(0n, position);
    return position;
  }

  private async measureBacklog(): Promise<void> {
    const store = this.store;
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
    return delay(ms, undefined, { signal: this.sleeps.signal }).catch(() => undefined);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
