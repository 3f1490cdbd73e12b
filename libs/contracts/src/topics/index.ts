export * from './topic';
