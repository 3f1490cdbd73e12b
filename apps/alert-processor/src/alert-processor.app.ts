import { applyMigrations } from '@alert-ingestion/database';
import { configureHttpApp } from '@alert-ingestion/http';
import { INestApplication, Logger, LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { AlertProcessorEnv, LOCAL_ADMIN_TOKEN } from './alert-processor.env';
import { AlertProcessorModule } from './alert-processor.module';

const LOG_LEVELS: Record<AlertProcessorEnv['LOG_LEVEL'], LogLevel[]> = {
  error: ['fatal', 'error'],
  warn: ['fatal', 'error', 'warn'],
  log: ['fatal', 'error', 'warn', 'log'],
  debug: ['fatal', 'error', 'warn', 'log', 'debug'],
  verbose: ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'],
};

/**
 * Builds the alert processor, initialised (migrations applied, integrations read, raw alert
 * consumer joined, event relay started) but not listening: main.ts listens on PORT, tests on port 0.
 */
export async function createAlertProcessorApp(env: AlertProcessorEnv): Promise<INestApplication> {
  if (env.NODE_ENV === 'production' && env.ADMIN_TOKEN === LOCAL_ADMIN_TOKEN) {
    throw new Error('ADMIN_TOKEN must be set in production (the default is for local use only)');
  }
  const logger = new Logger('AlertProcessor');
  await applyMigrations({ databaseUrl: env.DATABASE_URL, log: (message) => logger.log(message) });
  const app = await NestFactory.create<NestExpressApplication>(AlertProcessorModule.forRoot(env), {
    logger: LOG_LEVELS[env.LOG_LEVEL],
  });
  configureHttpApp(app);
  app.disable('x-powered-by');
  await app.init();
  return app;
}
