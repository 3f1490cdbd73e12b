export * from './topic';
export * from './message-size';
export * from './topic-registry';
export * from './cloud-events';
export * from './topic-example';
