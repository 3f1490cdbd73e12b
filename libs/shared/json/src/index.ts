export * from './json';
export * from './json-body-limits';
export * from './unstorable-text';
