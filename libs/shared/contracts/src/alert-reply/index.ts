export * from './key';
export * from './value';
