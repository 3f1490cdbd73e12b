/** Injection token of the service's kafkajs `Kafka` client. */
export const KAFKA_CLIENT = Symbol('KAFKA_CLIENT');
