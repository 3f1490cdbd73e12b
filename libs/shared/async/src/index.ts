export * from './within-time';
