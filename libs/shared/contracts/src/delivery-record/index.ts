export * from './value';
