export * from './integration-view';
export * from './integration-registry';
export * from './integration-publisher';
