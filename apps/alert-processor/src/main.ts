import 'reflect-metadata';
import { loadConfigOrExit } from '@alert-ingestion/config';
import { runService } from '@alert-ingestion/http';
import { AlertProcessorEnv } from './alert-processor.env';
import { createAlertProcessorApp } from './alert-processor.app';

const env = loadConfigOrExit(AlertProcessorEnv);
void runService('alert-processor', () => createAlertProcessorApp(env), env.PORT);
