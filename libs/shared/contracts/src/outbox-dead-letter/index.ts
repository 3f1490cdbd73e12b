export * from './value';
export * from './examples';
