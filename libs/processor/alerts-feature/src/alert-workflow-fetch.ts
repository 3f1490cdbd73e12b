import { BatchConsumerOptions } from '@alert-ingestion/kafka';

/**
 * How the alert workflow's consumers of alerts.events.v1 (the incident automation and the alert
 * emails) fetch: off the receive path, so under load each fetch waits (up to its usual 500 ms) for
 * about half a megabyte of events instead of returning with the first few. Every chunk costs a few
 * transactions whatever its size, so larger chunks leave more of PostgreSQL to intake; a chunk holds
 * at most 500 events, so one transaction stays short and the partition's next chunk waits for it.
 */
export const ALERT_WORKFLOW_FETCH = {
  config: { minBytes: 512 * 1024, maxWaitTimeInMs: 500 },
  maxChunkMessages: 500,
} satisfies Pick<BatchConsumerOptions, 'config' | 'maxChunkMessages'>;
