export * from './topic';
export * from './message-size';
export * from './topic-registry';
