import 'reflect-metadata';
import { ConfigurationError, loadConfig } from '@alert-ingestion/config';
import { GatewayEnv } from '@alert-ingestion/gateway-feature';
import { runService } from '@alert-ingestion/http';
import { createGatewayApp } from './gateway.app';

function loadEnv(): GatewayEnv {
  try {
    return loadConfig(GatewayEnv);
  } catch (error) {
    console.error(error instanceof ConfigurationError ? error.message : error);
    process.exit(1);
  }
}

const env = loadEnv();
void runService('gateway', () => createGatewayApp(env), env.PORT);
