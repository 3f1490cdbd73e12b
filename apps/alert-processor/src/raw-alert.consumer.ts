import { BatchOutcome, ProcessorMetrics, RawAlertBatchProcessor } from '@alert-ingestion/alerts-feature';
import { Topic } from '@alert-ingestion/contracts';
import { StructuredLogMessage } from '@alert-ingestion/http';
import { ChunkOutcome, ConsumedChunk, TopicBatch, TopicProducer } from '@alert-ingestion/kafka';
import { secondsSince } from '@alert-ingestion/metrics';
import { Controller, Logger } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';

/**
 * alerts.raw.v1 through the KafkaBatchTransport (group `alert-processor`): each chunk is stored by
 * RawAlertBatchProcessor in one transaction; its replies and dead letters are sent while the next
 * chunk is stored, and only then does the chunk's offset become committable. A crash anywhere before
 * the offset commit means redelivery, which the processed_raw_alerts record turns into a no-op that
 * repeats the stored answer (exactly-once effect).
 */
@Controller()
export class RawAlertConsumer {
  private readonly logger = new Logger(RawAlertConsumer.name);

  constructor(
    private readonly processor: RawAlertBatchProcessor,
    private readonly producer: TopicProducer,
    private readonly metrics: ProcessorMetrics,
  ) {}

  @EventPattern(Topic.RawAlerts)
  async consume(@Payload() chunk: ConsumedChunk<Topic.RawAlerts>): Promise<ChunkOutcome> {
    const started = performance.now();
    const outcome = await this.processor.process(chunk.partition, chunk.messages);
    this.metrics.batchStored(chunk.messages.length, secondsSince(started), outcome);
    this.metrics.lag(chunk.partition, chunk.highWatermark, chunk.nextOffset);
    return { settle: () => this.send(outcome) };
  }

  /** Replies (key: the waiting gateway instance) and dead letters, durably, before offsets move. */
  private async send(outcome: BatchOutcome): Promise<void> {
    const batches: TopicBatch[] = [];
    if (outcome.replies.length > 0) batches.push({ topic: Topic.AlertReplies, messages: outcome.replies });
    if (outcome.deadLetters.length > 0) {
      for (const { value: letter, requestId } of outcome.deadLetters) {
        this.logger.warn({
          message: `Dead-lettered ${letter.source_topic}/${letter.source_partition}@${letter.source_offset}: ${letter.reason}`,
          request_id: requestId,
        } satisfies StructuredLogMessage);
      }
      batches.push({ topic: Topic.RawAlertsDeadLetter, messages: outcome.deadLetters.map((letter) => ({ key: null, value: letter.value })) });
    }
    if (batches.length > 0) await this.producer.sendBatch(batches);
    this.metrics.deadLettered(outcome.deadLetters.length);
  }
}
