import { IntegrationSnapshot, PayloadFieldMappingEntry, ProjectTier, Topic, TOPIC_REGISTRY } from '@alert-ingestion/contracts';
import { prismaSqlQuery } from '@alert-ingestion/database';
import { IntegrationType } from '@alert-ingestion/integrations-domain';
import { OutboxRecord, OutboxTable, outboxTable, writeOutbox } from '@alert-ingestion/outbox';
import { SqlQuery } from '@alert-ingestion/sql';
import { ConfigDatabase, ConfigTransaction } from './config-database';

type Snapshot = IntegrationSnapshot.IntegrationSnapshotValue;

/** integration-config's transactional outbox of integration snapshots, published to the compacted integrations.v1. */
export const INTEGRATION_SNAPSHOT_OUTBOX: OutboxTable = outboxTable('integration_snapshot_outbox');

/** What a snapshot is built from: the integration row joined with its project's tier. */
interface SnapshotRow {
  id: bigint | string;
  project_id: bigint | string;
  project_tier: ProjectTier;
  type: IntegrationType;
  name: string;
  active: boolean;
  url_token: string;
  authorization_key_sha256: string;
  /** Still working at the transaction's time, newest first (json_agg of the previous keys). */
  previous_keys: Array<{ authorization_key_sha256: string; expires_at: string }>;
  signing_secret_encrypted: string | null;
  allow_signature_without_timestamp: boolean;
  payload_field_mapping: PayloadFieldMappingEntry[];
  rate_limit_per_minute: number | null;
  heartbeat_interval_minutes: number | null;
  version: number;
  updated_at: Date;
}

const SNAPSHOT_COLUMNS = `i.id, i.project_id, p.tier::text AS project_tier, i.type::text AS type, i.name, i.active,
  i.url_token, i.authorization_key_sha256,
  (SELECT coalesce(json_agg(json_build_object('authorization_key_sha256', k.authorization_key_sha256, 'expires_at', k.expires_at) ORDER BY k.replaced_at DESC, k.id DESC), '[]')
     FROM alert_integration_previous_keys k WHERE k.integration_id = i.id AND k.expires_at > now()) AS previous_keys,
  i.signing_secret_encrypted, i.allow_signature_without_timestamp, i.payload_field_mapping, i.rate_limit_per_minute, i.heartbeat_interval_minutes, i.version, i.updated_at`;

export function toSnapshot(row: SnapshotRow): Snapshot {
  const previousKeys = row.previous_keys.map((key) => ({ authorization_key_sha256: key.authorization_key_sha256.trim(), expires_at: new Date(key.expires_at).toISOString() }));
  const newest = previousKeys.at(0);
  return {
    id: row.id.toString(),
    project_id: row.project_id.toString(),
    project_tier: row.project_tier,
    type: row.type,
    name: row.name,
    active: row.active,
    url_token: row.url_token,
    authorization_key_sha256: row.authorization_key_sha256.trim(),
    // The gateway decides each previous key's expiry at request time: no snapshot at that instant.
    // The newest alone also goes in the single-key fields, which gateways of the previous release read.
    ...(newest === undefined
      ? {}
      : {
          previous_authorization_key_sha256: newest.authorization_key_sha256,
          previous_authorization_key_expires_at: newest.expires_at,
          previous_authorization_keys: previousKeys,
        }),
    // Already encrypted for the gateway (signingSecretCipher): the column travels as it is stored.
    ...(row.signing_secret_encrypted === null ? {} : { signing_secret_encrypted: row.signing_secret_encrypted }),
    ...(row.allow_signature_without_timestamp ? { allow_signature_without_timestamp: true } : {}),
    payload_field_mapping: row.payload_field_mapping,
    ...(row.rate_limit_per_minute === null ? {} : { rate_limit_per_minute: row.rate_limit_per_minute }),
    ...(row.heartbeat_interval_minutes === null ? {} : { heartbeat_interval_minutes: row.heartbeat_interval_minutes }),
    version: row.version,
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

/**
 * Writes the current state of integrations, as the transaction `query` belongs to sees it, to the
 * snapshot outbox: a snapshot per existing integration (encoded by TOPIC_REGISTRY, which validates it
 * against its contract), a tombstone per deleted one. `ids` 'all' writes every integration (the republish command). Returns the
 * highest outbox id written.
 */
export async function writeIntegrationSnapshots(query: SqlQuery, ids: readonly bigint[] | 'all'): Promise<bigint | null> {
  const from = `SELECT ${SNAPSHOT_COLUMNS} FROM alert_integrations i JOIN projects p ON p.id = i.project_id`;
  const rows =
    ids === 'all' ? await query<SnapshotRow>(`${from} ORDER BY i.id`, []) : await query<SnapshotRow>(`${from} WHERE i.id = ANY($1::bigint[])`, [ids.map(String)]);
  const snapshots = new Map(rows.map((row) => [row.id.toString(), toSnapshot(row)]));
  const keys = ids === 'all' ? [...snapshots.keys()] : ids.map(String);
  const integrations = TOPIC_REGISTRY[Topic.Integrations];
  const records: OutboxRecord[] = keys.map((key) => {
    const snapshot = snapshots.get(key);
    return { key, value: snapshot ? integrations.encode(snapshot) : null };
  });
  return writeOutbox(query, INTEGRATION_SNAPSHOT_OUTBOX, records);
}

/**
 * The snapshot outbox (`integration_snapshot_outbox`): each change writes the snapshots of the
 * integrations it changed in its own transaction, and the outbox relay publishes them.
 */
export class IntegrationSnapshotOutbox {
  readonly table = INTEGRATION_SNAPSHOT_OUTBOX;

  constructor(private readonly database: ConfigDatabase) {}

  /** Writes the integrations' snapshots in the caller's transaction (see writeIntegrationSnapshots); the highest outbox id. */
  record(tx: ConfigTransaction, ids: readonly bigint[]): Promise<bigint | null> {
    return writeIntegrationSnapshots(prismaSqlQuery(this.database.client(tx)), ids);
  }

  /** The SQL the relay reads and deletes the outbox with, outside any transaction of a change. */
  relayQuery(): SqlQuery {
    return prismaSqlQuery(this.database.client());
  }
}
