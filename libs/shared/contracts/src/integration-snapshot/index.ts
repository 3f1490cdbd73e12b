export * from './key';
export * from './value';
export * from './examples';
