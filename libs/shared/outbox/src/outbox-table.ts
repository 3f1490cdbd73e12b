import { sqlLiteral, SqlQuery } from '@alert-ingestion/sql';

/**
 * A transactional outbox: a table of records to publish to one Kafka topic, written in the same
 * database transaction as the change they describe, so a record exists exactly when its change is
 * committed. Every outbox table has the same columns:
 *   id bigserial PRIMARY KEY, key text NOT NULL, value json (NULL: a tombstone), created_at timestamptz.
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
}

/** One record to publish: its Kafka key and value (JSON text, or null for a tombstone). */
export interface OutboxRecord {
  key: string;
  value: string | null;
}

/**
 * The records as one JSON document for json_to_recordset, built by concatenation: values are JSON
 * text already, so they are neither parsed nor escaped again.
 */
export function outboxDocument(records: readonly OutboxRecord[]): string {
  return `[${records.map((record) => `{"key":${JSON.stringify(record.key)},"value":${record.value ?? 'null'}}`).join(',')}]`;
}

/**
 * The statements that write records in the caller's transaction, in the order given. `document`
 * is the SQL expression of the records' document: a `$1::json` parameter, or an inline literal
 * (outboxStatements) when the statements travel with others in one query.
 */
function writeStatements(table: OutboxTable, document: string): [lock: string, insert: string] {
  return [
    // A row of its own, not the functions' void results, which some clients (Prisma) cannot read.
    `SELECT true AS locked FROM pg_advisory_xact_lock(${table.writeLock}), pg_notify('${table.channel}', '')`,
    `INSERT INTO ${table.name} (key, value)
     SELECT r.key, r.value
     FROM ROWS FROM (json_to_recordset(${document}) AS (key text, value json)) WITH ORDINALITY AS r(key, value, position)
     ORDER BY r.position
     RETURNING id`,
  ];
}

/** The statements writing `records`, values inlined, to send with other statements in one query. */
export function outboxStatements(table: OutboxTable, records: readonly OutboxRecord[]): string[] {
  return records.length === 0 ? [] : writeStatements(table, sqlLiteral.jsonText(outboxDocument(records)));
}

/**
 * Writes records in the transaction `query` belongs to; resolves with the highest outbox id written
 * (null when there was nothing to write), which OutboxRelay.awaitPublished can wait for.
 */
export async function writeOutbox(query: SqlQuery, table: OutboxTable, records: readonly OutboxRecord[]): Promise<bigint | null> {
  if (records.length === 0) return null;
  const [lock, insert] = writeStatements(table, '$1::json');
  await query(lock, []);
  const rows = await query<{ id: bigint | string }>(insert, [outboxDocument(records)]);
  return rows.reduce((highest, row) => (BigInt(row.id) > highest ? BigInt(row.id) : highest), 0n);
}
