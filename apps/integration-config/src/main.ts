import 'reflect-metadata';
import { ConfigurationError, loadConfig } from '@alert-ingestion/config';
import { runService } from '@alert-ingestion/http';
import { createIntegrationConfigApp } from './integration-config.app';
import { IntegrationConfigEnv } from './integration-config.env';

function loadEnv(): IntegrationConfigEnv {
  try {
    return loadConfig(IntegrationConfigEnv);
  } catch (error) {
    console.error(error instanceof ConfigurationError ? error.message : error);
    process.exit(1);
  }
}

const env = loadEnv();
void runService('integration-config', () => createIntegrationConfigApp(env, { applyMigrations: true }), env.PORT);
