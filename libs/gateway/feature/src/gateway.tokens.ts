/** The gateway's Redis client (`ioredis`), or null without REDIS_URL. */
export const GATEWAY_REDIS = Symbol('GATEWAY_REDIS');

/** The batching publisher of delivery records (TopicProducer.batched(alerts.deliveries.v1)). */
export const DELIVERY_RECORDS_PUBLISHER = Symbol('DELIVERY_RECORDS_PUBLISHER');

/** The batching publisher of raw alerts (TopicProducer.batched(alerts.raw.v1)). */
export const RAW_ALERTS_PUBLISHER = Symbol('RAW_ALERTS_PUBLISHER');
