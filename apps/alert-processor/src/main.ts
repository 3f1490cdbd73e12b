import 'reflect-metadata';
import { setPriority } from 'node:os';
import { loadConfigOrExit } from '@alert-ingestion/config';
import { runService } from '@alert-ingestion/http';
import { AlertProcessorEnv } from './alert-processor.env';
import { createAlertProcessorApp } from './alert-processor.app';

const env = loadConfigOrExit(AlertProcessorEnv);
// A processor that should give way to others on the same machine (the workflow role apart from intake).
if (env.PROCESSOR_NICENESS > 0) setPriority(env.PROCESSOR_NICENESS);
void runService('alert-processor', () => createAlertProcessorApp(env), env.PORT);
