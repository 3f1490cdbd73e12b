export * from './metric-catalogue';
export * from './service-metrics';
export * from './metrics-registry';
export * from './http-request-metrics';
export * from './metrics.controller';
export * from './metrics.module';
