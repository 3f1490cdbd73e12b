export * from './access-level';
