export * from './value';
export * from './original-text';
export * from './examples';
