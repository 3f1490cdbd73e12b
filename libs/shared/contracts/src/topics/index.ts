export * from './topic';
export * from './message-size';
