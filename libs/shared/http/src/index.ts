export * from './domain-error';
export * from './http-error.filter';
export * from './configure-http-app';
export * from './health.module';
export * from './run-service';
