export * from './value';
export * from './original-text';
