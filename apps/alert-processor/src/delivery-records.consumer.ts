import { DeliveriesRepository } from '@alert-ingestion/alerts-data';
import { storableText } from '@alert-ingestion/alerts-domain';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from '@alert-ingestion/alerts-feature';
import { ContractViolationError, DeadLetter, DeliveryRecord, Topic } from '@alert-ingestion/contracts';
import { ConsumedChunk, TopicProducer } from '@alert-ingestion/kafka';
import { Controller, Inject, Logger } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaMessage } from 'kafkajs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * alerts.deliveries.v1 through the KafkaBatchTransport (group `alert-processor-deliveries`): the
 * gateway's delivery records (refusals of a known URL, and 202s), a low-volume stream. A record that
 * breaks its contract goes to alerts.deliveries.v1.dlq with the reason; a database that does not
 * answer is waited for (the partition holds, nothing is lost) while the app runs.
 */
@Controller()
export class DeliveryRecordsConsumer {
  private readonly logger = new Logger('DeliveryRecords');

  constructor(
    private readonly deliveries: DeliveriesRepository,
    private readonly producer: TopicProducer,
    @Inject(ALERTS_FEATURE_OPTIONS) private readonly options: AlertsFeatureOptions,
  ) {}

  @EventPattern(Topic.Deliveries)
  async record(@Payload() chunk: ConsumedChunk<Topic.Deliveries>): Promise<void> {
    if (this.options.deliveries.keepPerIntegration === 0) return;
    const records: DeliveryRecord.DeliveryRecordValue[] = [];
    const refused: Array<{ message: KafkaMessage; reason: string }> = [];
    for (const message of chunk.messages) {
      try {
        const record = chunk.decode(message);
        records.push({ ...record, body: storableText(record.body) });
      } catch (error) {
        refused.push({ message, reason: error instanceof ContractViolationError ? error.message : String(error) });
      }
    }
    if (refused.length > 0) await this.deadLetter(chunk, refused);
    for (let attempt = 1; records.length > 0 && chunk.isRunning(); attempt++) {
      try {
        await this.deliveries.recordFromGateway(records);
        return;
      } catch (error) {
        if (attempt === 1) this.logger.warn(`Recording ${records.length} deliveries failed, retrying: ${error instanceof Error ? error.message : String(error)}`);
        await sleep(Math.min(5_000, 200 * attempt));
        await chunk.heartbeat();
      }
    }
  }

  /** The chunk's messages that break the contract, to the dead-letter topic in one produce request. */
  private async deadLetter(chunk: ConsumedChunk<Topic.Deliveries>, refused: ReadonlyArray<{ message: KafkaMessage; reason: string }>): Promise<void> {
    const failedAt = new Date().toISOString();
    for (const { message, reason } of refused) this.logger.warn(`Dead-lettered ${chunk.topic}/${chunk.partition}@${message.offset}: ${reason}`);
    await this.producer.send(
      Topic.DeliveriesDeadLetter,
      refused.map(({ message, reason }) => ({
        key: null,
        value: {
          reason,
          source_topic: chunk.topic,
          source_partition: chunk.partition,
          source_offset: message.offset,
          original_value: DeadLetter.deadLetterText(message.value?.toString() ?? 'null').text,
          failed_at: failedAt,
        },
      })),
    );
  }
}
