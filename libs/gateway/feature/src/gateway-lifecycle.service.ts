import { withinTime } from '@alert-ingestion/async';
import { IntegrationRegistry } from '@alert-ingestion/integrations-registry';
import { Topic } from '@alert-ingestion/contracts';
import { BatchedTopicProducer, ensureTopics, KAFKA_CLIENT, KafkaNames } from '@alert-ingestion/kafka';
import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Redis } from 'ioredis';
import { Kafka } from 'kafkajs';
import type { Server } from 'node:http';
import { AlertReceiveService } from './alert-receive.service';
import { AlertReplyWaiter } from './alert-reply-waiter';
import { GATEWAY_FEATURE_OPTIONS, GatewayFeatureOptions } from './gateway-feature.options';
import { DELIVERY_RECORDS_PUBLISHER, GATEWAY_REDIS, RAW_ALERTS_PUBLISHER } from './gateway.tokens';

/**
 * Longest the gateway waits at shutdown for the receive requests in flight: each ends by its reply
 * timeout at the latest; the margin covers a slow final produce. The Kubernetes grace period is
 * sized from it (deploy/k8s, checked by tools/k8s/test/manifests.spec.ts).
 */
export function shutdownDrainLimitMs(replyTimeoutMs: number): number {
  return replyTimeoutMs + 10_000;
}

/**
 * Starts and stops the gateway's Kafka clients around the HTTP server.
 * Start (before the app listens): topics exist, the producer is connected, the integrations are
 * read to the end, and the reply listener listens, so the first request can be answered.
 * Stop (SIGTERM): Nest runs onModuleDestroy before it closes the HTTP server and disconnects in
 * onApplicationShutdown after, so in between the gateway stops accepting connections, answers every
 * request in flight (their batches are flushed, their replies still arrive), and only then
 * disconnects from Kafka.
 */
@Injectable()
export class GatewayLifecycle implements OnModuleInit, OnModuleDestroy, OnApplicationShutdown {
  private readonly logger = new Logger('Gateway');
  private drainingSince: number | null = null;

  constructor(
    @Inject(KAFKA_CLIENT) private readonly kafka: Kafka,
    private readonly names: KafkaNames,
    @Inject(GATEWAY_FEATURE_OPTIONS) private readonly options: GatewayFeatureOptions,
    private readonly registry: IntegrationRegistry,
    private readonly replies: AlertReplyWaiter,
    @Inject(RAW_ALERTS_PUBLISHER) private readonly publisher: BatchedTopicProducer<Topic.RawAlerts>,
    @Inject(DELIVERY_RECORDS_PUBLISHER) private readonly deliveryRecords: BatchedTopicProducer<Topic.Deliveries>,
    @Inject(GATEWAY_REDIS) private readonly redis: Redis | null,
    private readonly receiving: AlertReceiveService,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** True once shutdown began: answers then carry `Connection: close`. */
  get draining(): boolean {
    return this.drainingSince !== null;
  }

  async onModuleInit(): Promise<void> {
    await ensureTopics(this.kafka, this.names.prefix);
    // The shared producer is KafkaModule's, connected by it before this module starts.
    await Promise.all([this.registry.start(), this.replies.start()]);
    this.logger.log(`instance ${this.replies.instanceId} ready: ${this.registry.size} integrations known, replies at ${this.replies.endpoint.url}`);
  }

  async onModuleDestroy(): Promise<void> {
    this.drainingSince = Date.now();
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (server?.listening) server.close();
    const inFlight = this.receiving.inFlightRequests;
    if (inFlight > 0) this.logger.log(`finishing ${inFlight} receive requests in flight`);
    const limitMs = shutdownDrainLimitMs(this.options.replyTimeoutMs);
    await withinTime(this.receiving.idle(), limitMs, () => undefined);
    await Promise.all([this.publisher.drain(), this.deliveryRecords.drain()]);
  }

  async onApplicationShutdown(): Promise<void> {
    // The producer is KafkaModule's: it disconnects it.
    const results = await Promise.allSettled([this.replies.stop(), this.registry.stop(), this.redis?.quit()]);
    for (const result of results) {
      if (result.status === 'rejected') this.logger.warn(`disconnect failed: ${String(result.reason)}`);
    }
  }
}
