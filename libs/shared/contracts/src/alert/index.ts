export * from './platform-alert-field';
export * from './alert-view';
