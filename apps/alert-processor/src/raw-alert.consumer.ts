import { ReplySender } from '@alert-ingestion/alert-replies';
import { BatchOutcome, ProcessorMetrics, RawAlertBatchProcessor } from '@alert-ingestion/alerts-feature';
import { Topic } from '@alert-ingestion/contracts';
import { StructuredLogMessage } from '@alert-ingestion/http';
import { ChunkOutcome, ConsumedChunk, TopicProducer } from '@alert-ingestion/kafka';
import { Controller, Logger, OnApplicationShutdown } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';

/**
 * alerts.raw.v1 through the KafkaBatchTransport (group `alert-processor`): each chunk is stored by
 * RawAlertBatchProcessor in one transaction. Right after the COMMIT its replies are posted to the
 * waiting gateway instances (ReplySender: one POST per instance, never awaited by the partition: a
 * lost reply costs its caller a 202, never an alert); its dead letters are sent while the next
 * chunk is stored, and only then does the chunk's offset become committable. A crash anywhere
 * before the offset commit means redelivery, which the processed_raw_alerts record turns into a
 * no-op that repeats the stored answer (exactly-once effect).
 */
@Controller()
export class RawAlertConsumer implements OnApplicationShutdown {
  private readonly logger = new Logger(RawAlertConsumer.name);

  constructor(
    private readonly processor: RawAlertBatchProcessor,
    private readonly producer: TopicProducer,
    private readonly replies: ReplySender,
    private readonly metrics: ProcessorMetrics,
  ) {}

  @EventPattern(Topic.RawAlerts)
  async consume(@Payload() chunk: ConsumedChunk<Topic.RawAlerts>): Promise<ChunkOutcome> {
    const started = performance.now();
    const outcome = await this.processor.process(chunk.partition, chunk.messages);
    const storedMs = performance.now() - started;
    if (outcome.replies.length > 0) this.replies.send(outcome.replies, storedMs);
    this.metrics.batchStored(chunk.messages.length, storedMs / 1000, outcome);
    this.metrics.lag(chunk.partition, chunk.highWatermark, chunk.nextOffset);
    return { settle: () => this.deadLetter(outcome) };
  }

  /** Replies posted before shutdown still get their answer (each within PROCESSOR_REPLY_TIMEOUT_MS). */
  async onApplicationShutdown(): Promise<void> {
    await this.replies.drain();
  }

  /** Dead letters, durably, before offsets move. */
  private async deadLetter(outcome: BatchOutcome): Promise<void> {
    if (outcome.deadLetters.length === 0) return;
    for (const { value: letter, requestId } of outcome.deadLetters) {
      this.logger.warn({
        message: `Dead-lettered ${letter.source_topic}/${letter.source_partition}@${letter.source_offset}: ${letter.reason}`,
        request_id: requestId,
      } satisfies StructuredLogMessage);
    }
    await this.producer.send(
      Topic.RawAlertsDeadLetter,
      outcome.deadLetters.map((letter) => ({ key: null, value: letter.value })),
    );
    this.metrics.deadLettered(outcome.deadLetters.length);
  }
}
