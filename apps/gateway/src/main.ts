import 'reflect-metadata';
import { loadConfigOrExit } from '@alert-ingestion/config';
import { GatewayEnv } from './gateway.env';
import { runService } from '@alert-ingestion/http';
import { createGatewayApp } from './gateway.app';

const env = loadConfigOrExit(GatewayEnv);
void runService('gateway', () => createGatewayApp(env), env.PORT);
