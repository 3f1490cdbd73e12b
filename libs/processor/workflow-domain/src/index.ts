export * from './silenced';
export * from './timeline';
export * from './incident';
export * from './incident-commands';
export * from './incident-automation';
export * from './alert-settings';
export * from './alert-email';
