export * from './secret-digest';
export * from './authorization-key-cipher';
export * from './authorization-key-encryption-key';
export * from './signing-secret-cipher';
export * from './webhook-signer';
