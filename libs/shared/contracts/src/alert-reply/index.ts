export * from './value';
export * from './endpoint';
