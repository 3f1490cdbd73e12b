import { AlertEvent } from '@alert-ingestion/contracts';
import { AlertEventRelayStore, OutboxRow } from '@alert-ingestion/alerts-data';
import { Kafka, Partitioners, Producer } from 'kafkajs';

export interface AlertEventRelayLogger {
  log(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface AlertEventRelayOptions {
  databaseUrl: string;
  /** The physical (prefixed) alerts.events.v1 topic. */
  eventsTopic: string;
  /** Fixed per deployment: a new relay fences every older one holding the same id. */
  transactionalId: string;
  /** Consumer group under which the relay's position is committed inside its Kafka transactions. */
  positionGroupId: string;
  batchSize: number;
  /** Pause after a batch that was not full, so that a steady stream goes out in few transactions. */
  lingerMs: number;
  /** Fallback poll when no NOTIFY arrives (a lost notification only delays, never loses, an event). */
  pollIntervalMs: number;
  /** Pause before trying again to lead, or after a failure. */
  retryIntervalMs: number;
  logger: AlertEventRelayLogger;
}

/** The header carrying the outbox id, so a consumer can spot a replayed event should one ever arrive. */
export const OUTBOX_ID_HEADER = 'outbox-id';

/**
 * Publishes the transactional outbox to alerts.events.v1: every alert change exactly once, in order
 * per alert (CONTRACT.md "Events for other services").
 *
 * Guarantee, and why it holds:
 * - Outbox rows are written in the transaction of the change they describe, and become visible in
 *   id order (see insertOutboxEvents), so "every row below id P is published" is a complete position.
 * - One relay at a time: the leader holds a PostgreSQL session advisory lock; a newer leader's Kafka
 *   producer (same transactional id) fences any older one still running.
 * - Each batch of rows is produced in one Kafka transaction together with the new position P,
 *   committed as the offset of a dedicated consumer group (sendOffsets). Events and position become
 *   visible atomically, so after a crash at any point the next leader reads P from Kafka and neither
 *   skips nor repeats an event. Published rows are then deleted; a crash before that deletion
 *   leaves rows below P, which are never read again and go with the next deletion.
 * - Rows are sent in id order over an idempotent producer with one request in flight, and keyed by
 *   `<project_id>:<iid>`, so the events of one alert land in one partition in the order of its changes.
 * Subscribers must read with isolation level read_committed (kafkajs's default) to see each event once.
 */
export class AlertEventRelay {
  private running: Promise<void> | undefined;
  private stopping = false;
  private store: AlertEventRelayStore | undefined;
  private wakeSleep: (() => void) | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: AlertEventRelayOptions,
  ) {}

  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.run();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    // The batch in flight finishes; the loop then sees `stopping` and gives up leadership.
    this.wakeSleep?.();
    this.store?.wake();
    await this.running;
    this.running = undefined;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        await this.leadOnce();
      } catch (error) {
        if (!this.stopping) this.options.logger.error(`Alert event relay failed, retrying: ${error instanceof Error ? error.message : String(error)}`);
      }
      if (!this.stopping) await this.sleep(this.options.retryIntervalMs);
    }
  }

  private async leadOnce(): Promise<void> {
    const store = new AlertEventRelayStore(this.options.databaseUrl);
    if (!(await store.tryLead())) return;
    this.store = store;
    const producer = this.kafka.producer({
      transactionalId: this.options.transactionalId,
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
      allowAutoTopicCreation: false,
    });
    try {
      await producer.connect();
      // Initialises the transactional producer id: older relays are fenced and their open
      // transaction aborted before the position is read.
      await (await producer.transaction()).abort();
      let position = await this.committedPosition();
      const nextId = await store.nextOutboxId();
      if (position > nextId) {
        // A position beyond every id ever given means the database was recreated under a Kafka
        // cluster that kept the old position: start again from the first row rather than skip events.
        this.options.logger.warn(`Outbox position ${position} is beyond the next outbox id ${nextId}; the database was reset, publishing from the start`);
        position = 0n;
      }
      this.options.logger.log(`Alert event relay leading from outbox id ${position}`);
      await store.removePublished(0n, position);
      while (!this.stopping) {
        const rows = await store.read(position, this.options.batchSize);
        if (rows.length === 0) {
          await store.waitForRows(this.options.pollIntervalMs);
          continue;
        }
        const next = BigInt(rows[rows.length - 1].id) + 1n;
        await this.publish(producer, rows, next);
        await store.removePublished(position, next);
        position = next;
        if (rows.length < this.options.batchSize && this.options.lingerMs > 0) await this.sleep(this.options.lingerMs);
      }
    } finally {
      this.store = undefined;
      await producer.disconnect().catch(() => undefined);
      await store.release();
    }
  }

  private async publish(producer: Producer, rows: readonly OutboxRow[], next: bigint): Promise<void> {
    const transaction = await producer.transaction();
    try {
      await transaction.send({
        topic: this.options.eventsTopic,
        acks: -1,
        messages: rows.map((row) => ({
          key: AlertEvent.alertEventKey(row.project_id, row.iid),
          value: row.value,
          headers: { [OUTBOX_ID_HEADER]: row.id },
        })),
      });
      await transaction.sendOffsets({
        consumerGroupId: this.options.positionGroupId,
        topics: [{ topic: this.options.eventsTopic, partitions: [{ partition: 0, offset: next.toString() }] }],
      });
      await transaction.commit();
    } catch (error) {
      await transaction.abort().catch(() => undefined);
      throw error;
    }
  }

  /** The next outbox id to publish, as committed with the last published batch (0 when none was). */
  private async committedPosition(): Promise<bigint> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      const [topic] = await admin.fetchOffsets({ groupId: this.options.positionGroupId, topics: [this.options.eventsTopic] });
      const offset = topic?.partitions.find((partition) => partition.partition === 0)?.offset ?? '-1';
      return BigInt(offset) < 0n ? 0n : BigInt(offset);
    } finally {
      await admin.disconnect();
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeSleep = done;
    });
  }
}
