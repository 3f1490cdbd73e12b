export * from './reply-hop';
export * from './reply-listener';
export * from './reply-sender';
