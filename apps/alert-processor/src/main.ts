import 'reflect-metadata';
import { ConfigurationError, loadConfig } from '@alert-ingestion/config';
import { runService } from '@alert-ingestion/http';
import { AlertProcessorEnv } from './alert-processor.env';
import { createAlertProcessorApp } from './alert-processor.app';

function loadEnv(): AlertProcessorEnv {
  try {
    return loadConfig(AlertProcessorEnv);
  } catch (error) {
    console.error(error instanceof ConfigurationError ? error.message : error);
    process.exit(1);
  }
}

const env = loadEnv();
void runService('alert-processor', () => createAlertProcessorApp(env), env.PORT);
