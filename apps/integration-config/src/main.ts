import 'reflect-metadata';
import { loadConfigOrExit } from '@alert-ingestion/config';
import { runService } from '@alert-ingestion/http';
import { createIntegrationConfigApp } from './integration-config.app';
import { IntegrationConfigEnv } from './integration-config.env';

const env = loadConfigOrExit(IntegrationConfigEnv);
void runService('integration-config', () => createIntegrationConfigApp(env, { applyMigrations: true }), env.PORT);
