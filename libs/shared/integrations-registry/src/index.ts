export * from './integration-view';
export * from './integration-registry';
