export * from './json-value';
export * from './integration-rule-violation';
export * from './access-level';
export * from './sample-payload';
export * from './payload-field-mapping';
export * from './integration-rules';
export * from './credentials';
export * from './authorization-key-cipher';
