import { IntegrationRegistry } from '@alert-ingestion/integrations-registry';
import { KAFKA_CLIENT, KafkaHealthProbe } from '@alert-ingestion/kafka';
import { Inject, Injectable } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { AlertReplyWaiter } from './alert-reply-waiter';

/**
 * `/healthz` for the gateway, which has no database: Kafka answers, the integrations consumer is
 * still following its topic (without it the gateway could authenticate nobody) and the reply
 * listener listens (without it the gateway could answer nothing but 202).
 */
@Injectable()
export class GatewayHealthProbe extends KafkaHealthProbe {
  constructor(
    @Inject(KAFKA_CLIENT) kafka: Kafka,
    private readonly registry: IntegrationRegistry,
    private readonly replies: AlertReplyWaiter,
  ) {
    super(kafka);
  }

  override async ping(): Promise<void> {
    await super.ping();
    if (!this.registry.healthy) throw new Error('the integrations consumer has stopped');
    if (!this.replies.healthy) throw new Error('the reply listener has stopped');
  }
}
