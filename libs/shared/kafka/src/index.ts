export * from './kafka-config';
export * from './kafka-names';
export * from './topics';
export * from './topic-message';
export * from './producer/topic-producer';
export * from './producer/transactional-producer';
// The engines of the durable and batched modes: services produce through TopicProducer.
export * from './durable-producer';
export * from './batching-producer';
export * from './consumer-group';
export * from './batch-consumer';
export * from './topic-view';
export * from './kafka-ping';
export * from './nest/kafka.tokens';
export * from './nest/kafka.health';
export * from './nest/kafka.module';
export * from './nest/kafka-batch.transport';
export * from './kafka-errors';
