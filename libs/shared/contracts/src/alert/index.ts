export * from './platform-alert-field';
export * from './alert-view';
export * from './silence';
export * from './activity';
export * from './incident';
export * from './alert-workflow';
export * from './notification';
