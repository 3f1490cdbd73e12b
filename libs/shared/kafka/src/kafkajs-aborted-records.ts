import fetchV10 from 'kafkajs/src/protocol/requests/fetch/v10/response';
import fetchV11 from 'kafkajs/src/protocol/requests/fetch/v11/response';
import fetchV4 from 'kafkajs/src/protocol/requests/fetch/v4/response';
import fetchV5 from 'kafkajs/src/protocol/requests/fetch/v5/response';
import fetchV6 from 'kafkajs/src/protocol/requests/fetch/v6/response';
import fetchV7 from 'kafkajs/src/protocol/requests/fetch/v7/response';
import fetchV8 from 'kafkajs/src/protocol/requests/fetch/v8/response';
import fetchV9 from 'kafkajs/src/protocol/requests/fetch/v9/response';
import type { AbortedTransaction, FetchedRecord, FetchResponseModule } from 'kafkajs/src/protocol/requests/fetch/v11/response';

/** The key of an ABORT marker: control record version 0, type 0 (a COMMIT marker's type is 1). */
const ABORT_MARKER_KEY = Buffer.from([0, 0, 0, 0]);

function isAbortMarker(record: FetchedRecord): boolean {
  return record.isControlRecord && record.key !== null && Buffer.from(record.key).equals(ABORT_MARKER_KEY);
}

/**
 * The records of aborted transactions among a partition's fetched records (in offset order), which
 * a read_committed consumer must skip, found as Kafka's own consumer finds them (its Fetcher): the
 * fetch response lists each aborted transaction by producer and first offset, in the order the
 * transactions ended; a producer's transactional records are aborted from the first offset of one
 * of its listed transactions up to its next ABORT marker. Transaction markers (control records)
 * are never in the result.
 */
export function abortedRecords<R extends FetchedRecord>(records: readonly R[], aborted: readonly AbortedTransaction[]): Set<R> {
  const found = new Set<R>();
  if (aborted.length === 0) return found;
  const byFirstOffset = [...aborted].sort((a, b) => (BigInt(a.firstOffset) < BigInt(b.firstOffset) ? -1 : BigInt(a.firstOffset) > BigInt(b.firstOffset) ? 1 : 0));
  const abortingProducers = new Set<string>();
  let next = 0;
  for (const record of records) {
    const offset = BigInt(record.offset);
    while (next < byFirstOffset.length && BigInt(byFirstOffset[next].firstOffset) <= offset) abortingProducers.add(byFirstOffset[next++].producerId);
    const { producerId, inTransaction } = record.batchContext;
    if (isAbortMarker(record)) abortingProducers.delete(producerId);
    else if (!record.isControlRecord && inTransaction && abortingProducers.has(producerId)) found.add(record);
  }
  return found;
}

let installed = false;

/**
 * kafkajs 2.2.4's consumer, reading committed records only (its default, and every consumer's
 * here), hands out records of aborted transactions when several producers' aborted transactions
 * interleave in a partition: it takes the broker's list of aborted transactions as sorted by first
 * offset (it is in the order they ended) and starts skipping at most one transaction per record
 * (its filterAbortedMessages). That is the case after a crash of a processor: its outbox relays,
 * one transactional producer per shard, all write to the same partitions, and the next leader
 * fences them one by one, which aborts their open transactions in any order. A consumer of the
 * events then read the aborted copies as well as the rows republished from the committed position:
 * events twice (48 to 102 of 1,500 in the crash-recovery spec under load). Kafka's own consumer
 * reads none of them.
 *
 * From here on every fetch response is decoded with the aborted records found as Kafka's consumer
 * finds them (abortedRecords) and marked as control records, which kafkajs leaves out of what it
 * hands to eachMessage and eachBatch but counts when it moves the partition's offset, as it does
 * for transaction markers; kafkajs's own list of aborted transactions is emptied, so its filter
 * leaves every record alone. Idempotent: the kafka library installs it when loaded.
 */
export function skipAbortedRecordsAsKafkaDoes(): void {
  if (installed) return;
  installed = true;
  // The fetch versions whose response lists aborted transactions (kafkajs asks Kafka 3.x for v11).
  for (const version of [fetchV4, fetchV5, fetchV6, fetchV7, fetchV8, fetchV9, fetchV10, fetchV11] as FetchResponseModule[]) {
    const decode = version.decode;
    version.decode = async (rawData) => {
      const response = await decode(rawData);
      for (const { partitions } of response.responses) {
        for (const partition of partitions) {
          for (const record of abortedRecords(partition.messages, partition.abortedTransactions)) record.isControlRecord = true;
          partition.abortedTransactions = [];
        }
      }
      return response;
    };
  }
}
