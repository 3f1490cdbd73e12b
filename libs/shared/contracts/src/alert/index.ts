export * from './platform-alert-field';
export * from './alert-view';
export * from './silence';
export * from './activity';
export * from './alert-workflow';
export * from './notification';
