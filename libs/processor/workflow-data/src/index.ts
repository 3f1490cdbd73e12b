export * from './incidents.repository';
export * from './alert-settings.repository';
export * from './alert-notifications.repository';
export * from './timeline.repository';
