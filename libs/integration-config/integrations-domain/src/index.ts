export * from './integration-rule-violation';
export * from './sample-payload';
export * from './payload-field-mapping';
export * from './integration-rules';
export * from './credentials';
export * from './authorization-key-cipher';
