export * from './secret-digest';
