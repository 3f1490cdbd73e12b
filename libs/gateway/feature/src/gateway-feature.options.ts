import type { BatchingProducerOptions } from '@alert-ingestion/kafka';
import type { AlertReceiveOptions } from './alert-receive.service';
import type { AlertReplyWaiterOptions } from './alert-reply-waiter';
import type { IntegrationRateLimitOptions } from './integration-rate-limit';

/** Settings of the gateway's receive pipeline, taken from GatewayEnv by the app: each part as its component takes it. */
export interface GatewayFeatureOptions extends Omit<AlertReceiveOptions, 'now'> {
  rawAlertBatching: Pick<BatchingProducerOptions, 'lingerMs' | 'maxMessages' | 'maxBytes' | 'maxInFlight' | 'compressAboveBytes'>;
  replies: Pick<AlertReplyWaiterOptions, 'host' | 'bindHost' | 'port' | 'maxBodyBytes'>;
  deliveryRecordsPerSecond: number;
  rateLimit: Pick<IntegrationRateLimitOptions, 'defaultPerMinute' | 'keyPrefix'> & { redisUrl?: string };
}

export const GATEWAY_FEATURE_OPTIONS = Symbol('GATEWAY_FEATURE_OPTIONS');
