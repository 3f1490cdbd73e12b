import { DeliveriesRepository } from '@alert-ingestion/alerts-data';
import { storableText } from '@alert-ingestion/alerts-domain';
import { ContractViolationError, DeadLetter, DeliveryRecord, encodeMessage, Topic, topicName, validateMessage } from '@alert-ingestion/contracts';
import { DurableProducer, KAFKA_CLIENT } from '@alert-ingestion/kafka';
import { Controller, Inject, Logger, OnModuleDestroy, Type } from '@nestjs/common';
import { Ctx, EventPattern, KafkaContext, Payload } from '@nestjs/microservices';
import { Kafka } from 'kafkajs';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';

/** Consumer group of the delivery records, next to the raw alerts' `alert-processor`. */
export function deliveryRecordsGroupId(topicPrefix: string): string {
  return `${topicPrefix}alert-processor-deliveries`;
}

/**
 * The controller that records the gateway's delivery records (refusals of a known URL, and 202s)
 * from alerts.deliveries.v1: a low-volume stream, consumed by the processor's Nest Kafka
 * microservice (`@EventPattern`) while the raw alerts keep their batch consumer. The topic's
 * physical name carries KAFKA_TOPIC_PREFIX, known only at start-up, hence a controller class per
 * topic name.
 *
 * A record that breaks its contract goes to alerts.deliveries.v1.dlq with the reason; a database
 * that does not answer is waited for (the partition holds, nothing is lost), while the app runs.
 */
export function deliveryRecordsController(topicPrefix: string): Type<unknown> {
  const topic = topicName(Topic.Deliveries, topicPrefix);

  @Controller()
  class DeliveryRecordsController implements OnModuleDestroy {
    private readonly logger = new Logger('DeliveryRecords');
    private readonly deadLetters: DurableProducer;
    private stopping = false;

    constructor(
      private readonly deliveries: DeliveriesRepository,
      @Inject(KAFKA_CLIENT) kafka: Kafka,
      @Inject(ALERTS_FEATURE_OPTIONS) private readonly options: AlertsFeatureOptions,
    ) {
      this.deadLetters = new DurableProducer(kafka, { idempotent: false, logSink: this.logger });
    }

    // NestJS 12 types a plain topic's handler as (event, ...unknown[]); the pattern-only overload
    // lets it take the KafkaContext.
    @EventPattern<string>(topic)
    async record(@Payload() value: unknown, @Ctx() context: KafkaContext): Promise<void> {
      if (this.options.deliveries.keepPerIntegration === 0) return;
      let record: DeliveryRecord.DeliveryRecordValue;
      try {
        record = validateMessage(DeliveryRecord.DeliveryRecordValue, value);
      } catch (error) {
        await this.deadLetter(value, context, error instanceof ContractViolationError ? error.message : String(error));
        return;
      }
      const storable = { ...record, body: storableText(record.body) };
      for (let attempt = 1; !this.stopping; attempt++) {
        try {
          await this.deliveries.recordFromGateway([storable]);
          return;
        } catch (error) {
          if (attempt === 1) this.logger.warn(`Recording delivery ${record.delivery_id} failed, retrying: ${error instanceof Error ? error.message : String(error)}`);
          await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 200 * attempt)));
          await context.getHeartbeat()();
        }
      }
    }

    async onModuleDestroy(): Promise<void> {
      this.stopping = true;
      await this.deadLetters.disconnect().catch(() => undefined);
    }

    private async deadLetter(value: unknown, context: KafkaContext, reason: string): Promise<void> {
      const message = context.getMessage();
      this.logger.warn(`Dead-lettered ${context.getTopic()}/${context.getPartition()}@${message.offset}: ${reason}`);
      await this.deadLetters.connect();
      await this.deadLetters.send({
        topic: topicName(Topic.DeliveriesDeadLetter, this.options.topicPrefix),
        messages: [
          {
            key: null,
            value: encodeMessage({
              reason,
              source_topic: context.getTopic(),
              source_partition: context.getPartition(),
              source_offset: message.offset,
              original_value: DeadLetter.deadLetterText(typeof value === 'string' ? value : JSON.stringify(value ?? null)).text,
              failed_at: new Date().toISOString(),
            }),
          },
        ],
      });
    }
  }

  return DeliveryRecordsController;
}
