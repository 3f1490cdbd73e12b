import { AlertEventOut } from '@alert-ingestion/alerts-domain';
import { AlertEvent, Topic, TOPIC_REGISTRY } from '@alert-ingestion/contracts';
import { OutboxRecord, outboxRecord, outboxStatements, OutboxTable, outboxTable } from '@alert-ingestion/outbox';

/**
 * The processor's transactional outbox of alert events, published to alerts.events.v1 by one relay
 * per shard (key_hash modulo EVENT_RELAY_SHARDS: every event of one alert is in one shard). The
 * single-relay leader lock is no longer taken by the processor; it stays as the table's name for it.
 */
export const ALERT_EVENT_OUTBOX: OutboxTable = outboxTable('alert_event_outbox');

/**
 * An alert event as an outbox record, encoded by TOPIC_REGISTRY: keyed `<project_id>:<iid>`, so
 * every event of one alert lands in one partition, in order; its value always fits the topic (a
 * payload too large for it is left out, `alert.payload_truncated`); its CloudEvents headers decided here.
 */
export function alertEventRecord(event: AlertEventOut): OutboxRecord {
  return outboxRecord(TOPIC_REGISTRY[Topic.AlertEvents], AlertEvent.alertEventKey(event.projectId, event.iid), event.value);
}

/** The statements that write alert events in the caller's transaction, in the order given (values inlined). */
export function alertEventStatements(events: readonly AlertEventOut[]): string[] {
  return outboxStatements(ALERT_EVENT_OUTBOX, events.map(alertEventRecord));
}


/**
 * The processor's transactional outbox of incident events, published to incidents.events.v1 by one
 * relay (OutboxRelaysService, beside the alert events'); the alert workflow writes it (workflow-data).
 */
export const INCIDENT_EVENT_OUTBOX: OutboxTable = outboxTable('incident_event_outbox');
