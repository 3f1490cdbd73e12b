export * from './config-database';
export * from './users.repository';
export * from './projects.repository';
export * from './integrations.repository';
export * from './integration-snapshot-outbox';
export * from './integrations-data.providers';
