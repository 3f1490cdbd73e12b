export * from './batch';
export * from './key';
export * from './value';
