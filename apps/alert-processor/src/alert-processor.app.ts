import { assertAdminTokenSetInProduction, nestLogLevels } from '@alert-ingestion/config';
import { applyMigrations } from '@alert-ingestion/database';
import { configureHttpApp } from '@alert-ingestion/http';
import { INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AlertProcessorEnv } from './alert-processor.env';
import { AlertProcessorModule } from './alert-processor.module';

/**
 * Builds the alert processor, initialised (migrations applied, integrations read, raw alert
 * consumer joined, event relay started) but not listening: main.ts listens on PORT, tests on port 0.
 */
export async function createAlertProcessorApp(env: AlertProcessorEnv): Promise<INestApplication> {
  assertAdminTokenSetInProduction(env);
  const logger = new Logger('AlertProcessor');
  await applyMigrations({ databaseUrl: env.DATABASE_URL, log: (message) => logger.log(message) });
  const app = await NestFactory.create<NestExpressApplication>(AlertProcessorModule.forRoot(env), {
    logger: nestLogLevels(env.LOG_LEVEL),
  });
  configureHttpApp(app);
  app.disable('x-powered-by');
  await app.init();
  return app;
}
