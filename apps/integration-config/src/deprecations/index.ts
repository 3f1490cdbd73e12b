export * from './deprecations-http.module';
export * from './deprecations.controller';
export * from './feature-history.controller';
export * from './pipeline-configuration-body-parser';
