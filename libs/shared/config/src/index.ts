import 'reflect-metadata';
export * from './base-env';
export * from './integration-key-env';
export * from './integer-setting';
export * from './heartbeat-minute-setting';
export * from './boolean-setting';
export * from './load-config';
export * from './config.service';
export * from './config.module';
