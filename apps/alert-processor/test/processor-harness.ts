import { AlertEvent, AlertReply, DeadLetter, IntegrationSnapshot, ProjectTier, RawAlert, Topic, TOPIC_REGISTRY } from '@alert-ingestion/contracts';
import { loadConfig } from '@alert-ingestion/config';
import { KafkaNames, TopicProducer } from '@alert-ingestion/kafka';
import {
  createTestDatabase,
  createTestTopics,
  IntegrationPublisher,
  serviceEnv,
  ServiceProcess,
  startService,
  testKafka,
  TestDatabase,
  TestTopics,
  TopicCollector,
  ReplyCollector,
  Received,
} from '@alert-ingestion/testing';
import { INestApplication } from '@nestjs/common';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { Pool } from 'pg';
import { createAlertProcessorApp } from '../src/alert-processor.app';
import { AlertProcessorEnv } from '../src/alert-processor.env';

export interface TestIntegration {
  id: string;
  projectId: string;
  tier: ProjectTier;
}

let nextId = Math.floor(Math.random() * 1_000_000) * 1000;

/** The processor under test, with its own database and topics, and test clients around it. */
export class ProcessorHarness {
  readonly replyTo = `test-gateway-${randomUUID()}`;
  app!: INestApplication;
  baseUrl!: string;
  env!: AlertProcessorEnv;
  serviceEnv!: Record<string, string>;
  db!: Pool;
  kafka!: Kafka;
  database!: TestDatabase;
  topics!: TestTopics;
  /** The waiting gateway's reply listener: raw alerts from rawAlert() name it as their reply_endpoint. */
  replies!: ReplyCollector;
  events!: TopicCollector<AlertEvent.AlertEventValue>;
  deadLetters!: TopicCollector<DeadLetter.DeadLetterValue>;
  private producer!: TopicProducer;
  private publisher!: IntegrationPublisher;

  /** Starts the test clients and, unless `inProcess` is false, the processor in this process. */
  async start(overrides: Record<string, string> = {}, inProcess = true): Promise<this> {
    [this.database, this.topics] = await Promise.all([createTestDatabase(), createTestTopics()]);
    // Test clients join while the group coordinator may still be loading: retried, not worth logging.
    this.kafka = testKafka({ logLevel: logLevel.NOTHING });
    this.db = this.database.pool(4);
    this.producer = new TopicProducer(this.kafka, new KafkaNames(this.topics.prefix));
    this.publisher = new IntegrationPublisher(this.kafka, { topicPrefix: this.topics.prefix });
    await Promise.all([this.producer.connect(), this.publisher.connect()]);
    const prefix = this.topics.prefix;
    [this.replies, this.events, this.deadLetters] = await Promise.all([
      ReplyCollector.start(),
      TopicCollector.published<AlertEvent.AlertEventValue>(this.kafka, prefix, Topic.AlertEvents),
      TopicCollector.published<DeadLetter.DeadLetterValue>(this.kafka, prefix, Topic.RawAlertsDeadLetter),
    ]);
    this.serviceEnv = serviceEnv({
      DATABASE_URL: this.database.url,
      KAFKA_TOPIC_PREFIX: prefix,
      EVENT_RELAY_POLL_MS: '50',
      // The waiting gateway is this test process's ReplyCollector. In a full run the process stalls
      // at times for longer than the processor's 2 s for a reply POST (a collection of its large heap,
      // both cores busy), and the processor drops replies that wait longer, by design: their callers
      // get 202. Here a reply may take as long as a test waits for it.
      PROCESSOR_REPLY_TIMEOUT_MS: '30000',
      ...overrides,
    });
    this.env = loadConfig(AlertProcessorEnv, this.serviceEnv);
    if (inProcess) await this.startApp();
    return this;
  }

  /** The built processor as a process of its own (so a test can kill it), on this harness's database and topics. */
  startProcess(): Promise<ServiceProcess> {
    return startService('alert-processor', this.serviceEnv);
  }

  async startApp(): Promise<void> {
    this.app = await this.startInstance();
    const address = this.app.getHttpServer().address() as AddressInfo;
    this.baseUrl = `http://127.0.0.1:${address.port}`;
  }

  /** Another processor instance with the same configuration (same consumer group, database and topics). */
  async startInstance(): Promise<INestApplication> {
    const app = await createAlertProcessorApp(this.env);
    await app.listen(0, '127.0.0.1');
    return app;
  }

  async stopApp(): Promise<void> {
    await this.app.close();
  }

  async stop(): Promise<void> {
    await this.app?.close().catch(() => undefined);
    await Promise.all([this.replies?.stop(), this.events?.stop(), this.deadLetters?.stop()].map((stopping) => stopping?.catch(() => undefined)));
    await this.producer?.disconnect().catch(() => undefined);
    await this.publisher?.disconnect().catch(() => undefined);
    await this.db?.end().catch(() => undefined);
    await this.topics?.drop().catch(() => undefined);
    await this.database?.drop().catch(() => undefined);
  }

  /** A new project with one integration, announced on the integrations topic. */
  async integration(
    tier: ProjectTier,
    mapping: IntegrationSnapshot.PayloadFieldMappingValue[] = [],
    projectId = String(++nextId),
  ): Promise<TestIntegration> {
    const id = String(++nextId);
    await this.publisher.publish({
      id,
      project_id: projectId,
      project_tier: tier,
      type: 'http',
      name: `integration ${id}`,
      active: true,
      url_token: randomBytes(16).toString('hex'),
      authorization_key_sha256: createHash('sha256').update(id).digest('hex'),
      payload_field_mapping: mapping,
      version: 1,
      updated_at: new Date().toISOString(),
    });
    return { id, projectId, tier };
  }

  rawAlert(integration: TestIntegration, payload: unknown, options: { replyTo?: string | null; requestId?: string } = {}): RawAlert.RawAlertValue {
    const value: RawAlert.RawAlertValue = {
      request_id: options.requestId ?? randomUUID(),
      integration_id: integration.id,
      project_id: integration.projectId,
      received_at: new Date().toISOString(),
      payload,
    };
    if (options.replyTo !== null) {
      value.reply_to = options.replyTo ?? this.replyTo;
      value.reply_endpoint = this.replies.endpoint;
    }
    return value;
  }

  /** Produces raw alert messages as the gateway would (key: integration id). */
  async send(...values: Array<RawAlert.RawAlertValue | { key: string; raw: string | null }>): Promise<void> {
    const raw = values.filter((value): value is { key: string; raw: string | null } => 'raw' in value);
    if (raw.length === 0) {
      await this.producer.send(
        Topic.RawAlerts,
        values.map((value) => ({ key: (value as RawAlert.RawAlertValue).integration_id, value: value as RawAlert.RawAlertValue })),
      );
      return;
    }
    // Bytes the contract refuses (a test of refusals) go around the registry, as another producer's would.
    const producer = this.kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    try {
      await producer.send({
        topic: new KafkaNames(this.topics.prefix).topic(Topic.RawAlerts),
        acks: -1,
        messages: values.map((value) =>
          'raw' in value ? { key: value.key, value: value.raw } : { key: value.integration_id, value: TOPIC_REGISTRY[Topic.RawAlerts].encode(value) },
        ),
      });
    } finally {
      await producer.disconnect();
    }
  }

  async replyFor(requestId: string, timeoutMs?: number): Promise<AlertReply.AlertReplyValue> {
    const [reply] = await this.replies.waitFor((message) => message.value.request_id === requestId, 1, timeoutMs);
    return reply.value;
  }

  /** Sends one payload through the processor and returns its reply. */
  async receive(integration: TestIntegration, payload: unknown): Promise<AlertReply.AlertReplyValue> {
    const raw = this.rawAlert(integration, payload);
    await this.send(raw);
    return this.replyFor(raw.request_id);
  }

  async alerts(projectId: string): Promise<Array<Record<string, unknown>>> {
    const result = await this.db.query('SELECT * FROM alerts WHERE project_id = $1 ORDER BY iid', [projectId]);
    return result.rows;
  }

  /** The events of one project's alerts, in topic order per alert. */
  projectEvents(projectId: string): Received<AlertEvent.AlertEventValue>[] {
    return this.events.received.filter((event) => event.value.project_id === Number(projectId));
  }
}
