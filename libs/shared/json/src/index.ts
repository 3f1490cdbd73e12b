export * from './json';
