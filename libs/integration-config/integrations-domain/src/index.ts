export * from './integration-rule-violation';
export * from './sample-payload';
export * from './payload-field-mapping';
export * from './integration-rules';
export * from './credentials';
// The cipher of secrets at rest is shared with the gateway (signing secrets): it lives in @alert-ingestion/crypto.
export { AuthorizationKeyCipher, AuthorizationKeyDecryptionError, parseEncryptionKey } from '@alert-ingestion/crypto';
export * from './credential-rules';
export * from './user-email';
