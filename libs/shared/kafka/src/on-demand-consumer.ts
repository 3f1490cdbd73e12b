import { BackgroundLoop } from '@alert-ingestion/async';
import { Topic } from '@alert-ingestion/contracts';
import { Admin, Kafka } from 'kafkajs';
import { BatchConsumer, BatchConsumerOptions } from './batch-consumer';
import { fetchTopicOffsets } from './topic-offsets';

export interface OnDemandConsumerOptions<T extends Topic = Topic> extends BatchConsumerOptions<T> {
  /**
   * Whether handling the topic's records now could come to anything. It must be false only when
   * the handler, given any record at that moment, would do nothing with it (it reads the same
   * settings when it handles a chunk), since records are skipped while it is false.
   */
  wanted: () => Promise<boolean>;
  /** How often `wanted` is asked, so how long a consumer takes to start once it is wanted. */
  demandIntervalMs: number;
}

/** What an OnDemandConsumer is doing: consuming (a member of its group) or idle (no member, no fetch). */
export type OnDemandState = 'consuming' | 'idle';

/**
 * A BatchConsumer that runs only while its records are wanted (`wanted`, asked every
 * `demandIntervalMs`): a consumer whose handler would skip every record, because no project has
 * the setting it serves on, costs neither a fetch nor a decode per record, and its instance is no
 * member of the group. While idle it reads the topic's ends and then asks `wanted` again: ends read
 * before an answer of "not wanted" mark records that, handled at that moment, would have come to
 * nothing. When it is wanted again, the group's offsets are first moved to the last such ends
 * (one short-lived member of kafkajs's admin per change of demand, not one per interval), so it
 * reads what came after them and skips the rest. When another instance still consumes in the
 * group, the broker refuses to move its offsets and the consumer joins where that one is.
 */
export class OnDemandConsumer<T extends Topic = Topic> {
  private readonly loop = new BackgroundLoop(() => this.run());
  private consumer: BatchConsumer<T> | undefined;
  private admin: Admin | undefined;
  /** The topic's ends as last read while the records were not wanted, per partition. */
  private skippable: Array<{ partition: number; offset: string }> | undefined;
  private failure: string | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly options: OnDemandConsumerOptions<T>,
  ) {}

  get state(): OnDemandState {
    return this.consumer ? 'consuming' : 'idle';
  }

  /** While consuming, whether its consumer still follows the topic; an idle one is healthy. */
  get healthy(): boolean {
    return this.consumer?.healthy ?? true;
  }

  /**
   * Starts following the demand in the background (the first look at once): the app's start-up
   * waits for neither the database nor the broker.
   */
  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    await this.consumer?.stop();
    this.consumer = undefined;
    await this.admin?.disconnect();
    this.admin = undefined;
  }

  private async run(): Promise<void> {
    while (!this.loop.stopping) {
      await this.follow();
      await this.loop.sleep(this.options.demandIntervalMs);
    }
  }

  /** One look at the demand: starts or stops the consumer; while idle, notes how far records may be skipped. */
  private async follow(): Promise<void> {
    try {
      if (await this.options.wanted()) {
        await this.consume();
      } else {
        await this.idle();
      }
      if (this.failure) this.options.logger.log(`The ${this.options.name} consumer follows its demand again`);
      this.failure = undefined;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (reason !== this.failure) this.options.logger.warn(`The ${this.options.name} consumer could not follow its demand (tried again in ${this.options.demandIntervalMs} ms): ${reason}`);
      this.failure = reason;
    }
  }

  private async consume(): Promise<void> {
    if (this.consumer) return;
    if (this.skippable) await this.skip(this.skippable);
    this.skippable = undefined;
    const consumer = new BatchConsumer(this.kafka, this.options);
    await consumer.start();
    this.consumer = consumer;
    this.options.logger.log(`The ${this.options.name} consumer started: its records are wanted`);
  }

  private async idle(): Promise<void> {
    if (this.consumer) {
      const consumer = this.consumer;
      this.consumer = undefined;
      await consumer.stop();
      this.options.logger.log(`The ${this.options.name} consumer stopped: nothing would come of its records`);
    }
    const ends = await fetchTopicOffsets(await this.connectedAdmin(), this.options.names.topic(this.options.topic));
    if (!(await this.options.wanted())) this.skippable = ends.map(({ partition, high }) => ({ partition, offset: high }));
  }

  /** Moves the group's committed offsets to `ends`, unless another instance consumes in the group. */
  private async skip(ends: Array<{ partition: number; offset: string }>): Promise<void> {
    try {
      await (await this.connectedAdmin()).setOffsets({ groupId: this.options.groupId, topic: this.options.names.topic(this.options.topic), partitions: ends });
    } catch (error) {
      if (error instanceof Error && /must have no running instances/.test(error.message)) return;
      throw error;
    }
  }

  private async connectedAdmin(): Promise<Admin> {
    if (!this.admin) {
      const admin = this.kafka.admin();
      await admin.connect();
      this.admin = admin;
    }
    return this.admin;
  }
}
