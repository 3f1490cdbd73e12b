import { sqlLiteral, SqlQuery } from '@alert-ingestion/sql';

/**
 * A transactional outbox: a table of records to publish to one Kafka topic, written in the same
 * database transaction as the change they describe, so a record exists exactly when its change is
 * committed. Every outbox table has the same columns:
 *   id bigserial PRIMARY KEY, key text NOT NULL, value json (NULL: a tombstone), created_at timestamptz,
 *   headers json (an object of strings; NULL: none).
 */
export interface OutboxTable {
  name: string;
  /** Channel a committed write notifies, so the relay publishes without waiting for its poll. */
  channel: string;
  /**
   * Transaction advisory lock held from the moment a transaction allocates outbox ids until it
   * commits. Outbox ids therefore become visible in id order, which lets the relay keep one position
   * ("every id below P is published") instead of tracking gaps left by transactions that commit late.
   */
  writeLock: number;
  /** Session advisory lock of the one relay that publishes this outbox. */
  leaderLock: number;
  /** Present when the outbox is published by several relays, one per shard (ShardedOutboxRelay). */
  sharding?: OutboxSharding;
}

/**
 * How a sharded outbox splits its rows: by a hash of the key, so every record of one key is in one
 * shard and keeps its order. The shard of a row is `keyHashColumn mod shardCount`, taken when the
 * row is read, so the shard count is the relays' setting and the writers need not know it.
 */
export interface OutboxSharding {
  /**
   * A non-negative bigint column holding a hash of the key, computed by PostgreSQL (a generated
   * column), so every writer, of any version, stores the same hash for the same key.
   */
  keyHashColumn: string;
  /**
   * First key (int4) of the two-key session advisory locks of the relays: (lockClass, shard) is held
   * by the relay leading that shard, (lockClass + 1, instance id) by every live relay instance.
   */
  lockClass: number;
}

/**
 * The advisory locks of every outbox table, in one place: two outboxes sharing a lock would make one
 * relay wait for the other's leader (or writers of one wait for the other's), silently. A sharded
 * outbox names its sharding here too, since its lock class (and the class after it) are two-key
 * locks every sharded outbox must have of its own.
 */
export const OUTBOX_ADVISORY_LOCKS = {
  alert_event_outbox: { writeLock: 7_311_202_401, leaderLock: 7_311_202_402, sharding: { keyHashColumn: 'key_hash', lockClass: 731_120_240 } },
  integration_snapshot_outbox: { writeLock: 7_311_202_403, leaderLock: 7_311_202_404 },
  incident_event_outbox: { writeLock: 7_311_202_405, leaderLock: 7_311_202_406 },
  oncall_event_outbox: { writeLock: 7_311_202_407, leaderLock: 7_311_202_408 },
} as const satisfies Record<string, Omit<OutboxTable, 'name' | 'channel'>>;

/** The outbox table `name` (its NOTIFY channel named after it) with its locks. */
export function outboxTable(name: keyof typeof OUTBOX_ADVISORY_LOCKS): OutboxTable {
  return { name, channel: name, ...OUTBOX_ADVISORY_LOCKS[name] };
}

/**
 * One record to publish: its Kafka key, value (JSON text, or null for a tombstone) and headers (on
 * a public topic its CloudEvents attributes: TopicBinding.headers), published with the row's
 * `outbox-id` header.
 */
export interface OutboxRecord {
  key: string;
  value: string | null;
  headers?: Readonly<Record<string, string>>;
}

/** What outboxRecord needs of a topic's binding in TOPIC_REGISTRY: its encoding and its headers. */
export interface OutboxTopic<Value> {
  encode(value: Value): string;
  headers(value: Value): Record<string, string>;
}

/**
 * A value of a topic as an outbox record: encoded by TOPIC_REGISTRY, with the headers its topic
 * gives it (on a public topic its CloudEvents attributes with a new `ce_id`, kept by the row).
 */
export function outboxRecord<Value>(topic: OutboxTopic<Value>, key: string, value: Value): OutboxRecord {
  return { key, value: topic.encode(value), headers: topic.headers(value) };
}

/**
 * The records as three JSON documents, their keys, values and headers in the same order, built by
 * concatenation: values are JSON text already, so they are neither parsed nor escaped again. Arrays
 * read by json_array_elements, not one array of objects read by json_to_recordset: that one
 * unescapes every string of its document and refuses a `\u0000` or an unpaired surrogate (an alert
 * payload may hold either), while json_array_elements and the `json` column keep a value's text.
 */
export function outboxDocuments(records: readonly OutboxRecord[]): { keys: string; values: string; headers: string } {
  return {
    keys: JSON.stringify(records.map((record) => record.key)),
    values: `[${records.map((record) => record.value ?? 'null').join(',')}]`,
    headers: JSON.stringify(records.map((record) => (record.headers && Object.keys(record.headers).length > 0 ? record.headers : null))),
  };
}

/**
 * The statements that write records in the caller's transaction, in the order given. `keys`,
 * `values` and `headers` are the SQL expressions of the records' documents: `$1::json`, `$2::json`
 * and `$3::json` parameters, or inline literals (outboxStatements) when the statements travel with
 * others in one query.
 */
function writeStatements(table: OutboxTable, keys: string, values: string, headers: string): [lock: string, insert: string] {
  return [
    // A row of its own, not the functions' void results, which some clients (Prisma) cannot read.
    `SELECT true AS locked FROM pg_advisory_xact_lock(${table.writeLock}), pg_notify('${table.channel}', '')`,
    `INSERT INTO ${table.name} (key, value, headers)
     SELECT k.key, CASE WHEN json_typeof(v.value) = 'null' THEN NULL ELSE v.value END, CASE WHEN json_typeof(h.headers) = 'null' THEN NULL ELSE h.headers END
     FROM json_array_elements_text(${keys}) WITH ORDINALITY AS k(key, position)
     JOIN json_array_elements(${values}) WITH ORDINALITY AS v(value, position) ON v.position = k.position
     JOIN json_array_elements(${headers}) WITH ORDINALITY AS h(headers, position) ON h.position = k.position
     ORDER BY k.position
     RETURNING id`,
  ];
}

/** The statements writing `records`, values inlined, to send with other statements in one query. */
export function outboxStatements(table: OutboxTable, records: readonly OutboxRecord[]): string[] {
  if (records.length === 0) return [];
  const { keys, values, headers } = outboxDocuments(records);
  return writeStatements(table, sqlLiteral.jsonText(keys), sqlLiteral.jsonText(values), sqlLiteral.jsonText(headers));
}

/**
 * Writes records in the transaction `query` belongs to; resolves with the highest outbox id written
 * (null when there was nothing to write), which OutboxRelay.awaitPublished can wait for.
 */
export async function writeOutbox(query: SqlQuery, table: OutboxTable, records: readonly OutboxRecord[]): Promise<bigint | null> {
  if (records.length === 0) return null;
  const [lock, insert] = writeStatements(table, '$1::json', '$2::json', '$3::json');
  const { keys, values, headers } = outboxDocuments(records);
  await query(lock, []);
  const rows = await query<{ id: bigint | string }>(insert, [keys, values, headers]);
  return rows.reduce((highest, row) => (BigInt(row.id) > highest ? BigInt(row.id) : highest), 0n);
}
