import { assertAdminTokenSetInProduction, integrationKeyEncryptionKey } from '@alert-ingestion/config';
import { MAX_API_NESTING_DEPTH, MAX_MANAGEMENT_BODY_BYTES } from '@alert-ingestion/contracts';
import { forwardedAlertsApiControllers } from '@alert-ingestion/alerts-api';
import { configureHttpApp, createOpenApiDocument, OpenApiOptions, serveAsyncApi, serveOpenApi, useServiceLogging } from '@alert-ingestion/http';
import { INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { OpenAPIObject } from '@nestjs/swagger';
import { forwardAlertsApi } from './alerts-proxy';
import { usePipelineConfigurationBodyParser } from './deprecations/pipeline-configuration-body-parser';
import { IntegrationConfigEnv } from './integration-config.env';
import { IntegrationConfigModule, IntegrationConfigModuleOptions } from './integration-config.module';

/** See MAX_MANAGEMENT_BODY_BYTES: a test, preview or sample payload of up to 1 MiB travels as a JSON string. */
const MANAGEMENT_JSON_BODY_LIMITS = { maxBytes: MAX_MANAGEMENT_BODY_BYTES, maxDepth: MAX_API_NESTING_DEPTH };

export interface CreateIntegrationConfigAppOptions {
  /** Apply migrations at start-up (main.ts); tests use databases cloned from a migrated template. */
  applyMigrations?: boolean;
  /** The built web console to serve at `/` (tests use their own); by default dist/apps/console. */
  consoleDir?: string | null;
}

/** What the service's OpenAPI document says of itself, and the forwarded API it describes too. */
const OPENAPI: OpenApiOptions = {
  title: 'integration-config',
  description:
    'The management API (CONTRACT.md "Management API"): users and tokens, projects and members, alert integrations, and the deprecation catalogue.',
  // The alerts API this service forwards to alert-processor, described as the processor describes it.
  documentationOnly: forwardedAlertsApiControllers('AlertsProxyController', 'alerts (forwarded to alert-processor)'),
};

function moduleOptions(env: IntegrationConfigEnv, options: CreateIntegrationConfigAppOptions, encryptionKey: Buffer): IntegrationConfigModuleOptions {
  return {
    env,
    applyMigrations: options.applyMigrations ?? false,
    consoleDir: options.consoleDir,
    feature: {
      gatewayPublicUrl: env.GATEWAY_PUBLIC_URL,
      gatewayInternalUrl: env.GATEWAY_INTERNAL_URL ?? env.GATEWAY_PUBLIC_URL,
      authorizationKeyEncryptionKey: encryptionKey,
      testAlertTimeoutMs: env.TEST_ALERT_TIMEOUT_MS,
      databaseUrl: env.DATABASE_URL,
      snapshotPublishTimeoutMs: env.SNAPSHOT_PUBLISH_TIMEOUT_MS,
      heartbeatMinuteMs: env.HEARTBEAT_MINUTE_MS,
    },
  };
}

/**
 * The OpenAPI document integration-config serves at /api/v4/openapi.json, built without a database
 * or Kafka: the same modules in Nest's preview mode, where no provider is built and nothing connects.
 * tools/console-api generates the console's client types from it.
 */
export async function integrationConfigOpenApiDocument(): Promise<OpenAPIObject> {
  const env = new IntegrationConfigEnv();
  const module = IntegrationConfigModule.forRoot(moduleOptions(env, { consoleDir: null }, Buffer.alloc(32)));
  const app = await NestFactory.create<NestExpressApplication>(module, { preview: true, abortOnError: false, logger: false });
  try {
    return await createOpenApiDocument(app, OPENAPI);
  } finally {
    await app.close();
  }
}

/**
 * Builds integration-config, initialised (database connected, topics ensured, integrations
 * republished to the compacted topic) but not listening: main.ts listens on PORT, tests on port 0.
 */
export async function createIntegrationConfigApp(env: IntegrationConfigEnv, options: CreateIntegrationConfigAppOptions = {}): Promise<INestApplication> {
  const logging = useServiceLogging('integration-config', env);
  assertAdminTokenSetInProduction(env);
  const encryptionKey = integrationKeyEncryptionKey(env, new Logger('IntegrationConfig'), 'authorization keys are encrypted');

  const app = await NestFactory.create<NestExpressApplication>(
    IntegrationConfigModule.forRoot(moduleOptions(env, options, encryptionKey)),
    // configureHttpApp installs the JSON body parser with the management API's limits.
    { bodyParser: false, logger: logging.logger },
  );
  usePipelineConfigurationBodyParser(app);
  configureHttpApp(app, { logging, server: env, jsonBodyLimits: MANAGEMENT_JSON_BODY_LIMITS });
  app.disable('x-powered-by');
  forwardAlertsApi(app, env.ALERT_PROCESSOR_URL);
  await serveOpenApi(app, OPENAPI);
  serveAsyncApi(app, env.KAFKA_TOPIC_PREFIX);
  await app.init();
  return app;
}
