import { ONCALL_CONFIG_YAML_TYPES } from '@alert-ingestion/alerts-api';
import { assertAdminTokenSetInProduction } from '@alert-ingestion/config';
import { applyMigrations } from '@alert-ingestion/database';
import { configureHttpApp, serveAsyncApi, serveOpenApi, useServiceLogging } from '@alert-ingestion/http';
import { createKafkaConfig, ensureTopics, KafkaBatchTransport } from '@alert-ingestion/kafka';
import { INestApplication, Logger } from '@nestjs/common';
import { MicroserviceOptions } from '@nestjs/microservices';
import { Kafka } from 'kafkajs';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AlertProcessorEnv } from './alert-processor.env';
import { AlertProcessorModule } from './alert-processor.module';

/**
 * Builds the alert processor, initialised (migrations applied, topics created, integrations read, raw alert
 * consumer joined, event relay started, delivery records consumed) but not listening: main.ts
 * listens on PORT, tests on port 0.
 */
export async function createAlertProcessorApp(env: AlertProcessorEnv): Promise<INestApplication> {
  const logging = useServiceLogging('alert-processor', env);
  assertAdminTokenSetInProduction(env);
  const logger = new Logger('AlertProcessor');
  await applyMigrations({ databaseUrl: env.DATABASE_URL, log: (message) => logger.log(message) });
  // Every service creates the topics it needs up front (idempotent); kafkajs cannot use a missing topic.
  await ensureTopics(new Kafka(createKafkaConfig({ ...env, KAFKA_CLIENT_ID: `${env.KAFKA_CLIENT_ID}-topics` }, { logSink: new Logger('Kafka') })), env.KAFKA_TOPIC_PREFIX);
  const app = await NestFactory.create<NestExpressApplication>(AlertProcessorModule.forRoot(env), {
    // configureHttpApp installs the JSON body parser with the API's limits.
    bodyParser: false,
    logger: logging.logger,
  });
  // The on-call setup document may come as YAML: its text, for the controller to parse (1 MiB, as every body).
  app.useBodyParser('text', { type: [...ONCALL_CONFIG_YAML_TYPES], limit: '1mb' });
  configureHttpApp(app, { logging, server: env });
  app.disable('x-powered-by');
  // A hybrid app: raw alerts and delivery records arrive through the KafkaBatchTransport, as
  // chunks handed to the @EventPattern handlers of RawAlertConsumer and DeliveryRecordsConsumer.
  app.connectMicroservice<MicroserviceOptions>({ strategy: app.get(KafkaBatchTransport) }, { inheritAppConfig: true });
  await serveOpenApi(app, {
    title: 'alert-processor',
    description: 'The alerts query API (CONTRACT.md "Alerts query API"): alerts of a project, their status counts and status changes, and the deliveries to an integration\'s URL.',
  });
  serveAsyncApi(app, env.KAFKA_TOPIC_PREFIX);
  await app.init();
  await app.startAllMicroservices();
  return app;
}
