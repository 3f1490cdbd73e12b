import { nestLogLevels } from '@alert-ingestion/config';
import { AlertReceiveService, GatewayLifecycle, GatewayMetrics } from '@alert-ingestion/gateway-feature';
import { GatewayEnv } from './gateway.env';
import { configureHttpApp, useServiceLogging } from '@alert-ingestion/http';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Server } from 'node:http';
import { GatewayModule } from './gateway.module';
import { installReceiveAlertRoute } from './receive-alert.http-handler';

/**
 * Builds the gateway, initialised (Kafka clients connected, integrations read, reply listener open)
 * but not yet serving HTTP: main.ts listens on PORT, tests on port 0.
 */
export async function createGatewayApp(env: GatewayEnv): Promise<INestApplication> {
  const logging = useServiceLogging('gateway', env, { requestContext: env.GATEWAY_REQUEST_CONTEXT });
  const app = await NestFactory.create<NestExpressApplication>(GatewayModule.forRoot(env), {
    // configureHttpApp installs the JSON body parser of the other routes; the receive route, served
    // in front of Express, streams its body through the payload limits itself.
    bodyParser: false,
    logger: logging.logger,
  });
  configureHttpApp(app, { logging, server: env });
  app.disable('x-powered-by');
  // Answers are small and never cached; hashing every body for an ETag is wasted work.
  app.set('etag', false);
  const server = app.getHttpServer() as Server;
  // POST <integration url> is served in front of Express (see receiveAlertRoute for why).
  const lifecycle = app.get(GatewayLifecycle);
  installReceiveAlertRoute(server, app.get(AlertReceiveService), {
    draining: () => lifecycle.draining,
    metrics: app.get(GatewayMetrics),
    logAnswers: nestLogLevels(env.LOG_LEVEL).includes('debug'),
    logging,
  });
  await app.init();
  return app;
}
