import { AlertReply, ContractViolationError, DeadLetter, RawAlert } from '@alert-ingestion/contracts';
import { alertCandidates, isJsonObject, JsonValue } from '@alert-ingestion/alerts-domain';
import { AlertBatchRepository, RawAlertResult, RawAlertWork, sqlState } from '@alert-ingestion/alerts-data';
import { IntegrationLookup } from './integration-lookup';
import { decodeRawAlert } from './raw-alert-decoder';

/** A consumed Kafka message of alerts.raw.v1. */
export interface RawAlertMessage {
  offset: string;
  value: Buffer | null;
}

export interface ReplyOut {
  /** The gateway instance waiting (reply_to): the key, so one instance's replies share a partition. */
  key: string;
  value: AlertReply.AlertReplyValue;
}

export interface BatchOutcome {
  replies: ReplyOut[];
  deadLetters: DeadLetter.DeadLetterValue[];
  /** Raw alert messages stored (or found already stored) in this batch. */
  stored: number;
}

export interface RawAlertBatchProcessorOptions {
  /**
   * How long to wait for an integration the registry does not know yet (it may have been created
   * a moment ago and the gateway's view is ahead of ours) before the message is dead-lettered.
   */
  integrationLookupTimeoutMs: number;
  sourceTopic: string;
}

/**
 * Most bytes of the original value kept in a dead letter, measured as UTF-8 JSON text (escaping can
 * make a value several times longer). A raw message may be about 1 MiB, the broker's default
 * message size limit, so the whole of it would not fit into a dead letter; the rest is cut off and
 * the reason says so.
 */
export const DEAD_LETTER_MAX_ORIGINAL_BYTES = 512 * 1024;

/** The original value as text for a dead letter, cut to fit DEAD_LETTER_MAX_ORIGINAL_BYTES once escaped. */
export function deadLetterOriginal(value: Buffer | null, maxBytes = DEAD_LETTER_MAX_ORIGINAL_BYTES): { text: string | null; note: string } {
  if (value === null) return { text: null, note: '' };
  const full = value.toString();
  const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text));
  // Escaping makes a UTF-8 byte at most 6 bytes (\u001f), so small values need no measuring.
  if (value.length <= maxBytes / 6 || jsonBytes(full) <= maxBytes) return { text: full, note: '' };
  let keep = Math.min(full.length, maxBytes);
  let text = full.slice(0, keep);
  while (jsonBytes(text) > maxBytes) {
    keep = Math.floor(keep / 2);
    text = full.slice(0, keep);
  }
  return { text, note: ` (original_value truncated to its first ${keep} of ${full.length} characters)` };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** request_id and reply_to of a message that failed its contract, when they can still be read. */
function replyAddress(value: Buffer | null): { request_id: string; reply_to: string } | undefined {
  if (value === null) return undefined;
  try {
    const plain: unknown = JSON.parse(value.toString());
    if (!isJsonObject(plain as JsonValue)) return undefined;
    const { request_id, reply_to } = plain as Record<string, unknown>;
    if (typeof request_id === 'string' && UUID.test(request_id) && typeof reply_to === 'string' && reply_to !== '') {
      return { request_id, reply_to };
    }
  } catch {
    return undefined;
  }
  return undefined;
}

/**
 * PostgreSQL refused the data itself (SQLSTATE class 22 data exception, 23 integrity violation,
 * 54 program limit): running the same statement again can never succeed.
 */
function isDataError(error: unknown): boolean {
  const state = sqlState(error) ?? '';
  return state.startsWith('22') || state.startsWith('23') || state.startsWith('54');
}

/**
 * One batch of alerts.raw.v1 messages from one partition, in offset order:
 * decode (contract violations go to the dead-letter topic with the reason, and the waiting gateway
 * gets a `rejected` reply so its caller sees an error instead of a timeout, issue 4 point 6),
 * look up each integration, turn payloads into alert candidates (pure domain rules), store the whole
 * batch in one transaction, and build the `processed` replies. Sending replies and dead letters, and
 * committing offsets, is the caller's job, after this resolves (i.e. after the database commit).
 */
export class RawAlertBatchProcessor {
  constructor(
    private readonly repository: AlertBatchRepository,
    private readonly integrations: IntegrationLookup,
    private readonly options: RawAlertBatchProcessorOptions,
  ) {}

  async process(partition: number, messages: readonly RawAlertMessage[], now = new Date()): Promise<BatchOutcome> {
    const replies: ReplyOut[] = [];
    const deadLetters: DeadLetter.DeadLetterValue[] = [];
    const work: Array<{ message: RawAlertMessage; value: RawAlert.RawAlertValue; work: RawAlertWork }> = [];

    const reject = (message: RawAlertMessage, reason: string, address: { request_id: string; reply_to?: string } | undefined) => {
      const original = deadLetterOriginal(message.value);
      deadLetters.push({
        reason: reason + original.note,
        source_topic: this.options.sourceTopic,
        source_partition: partition,
        source_offset: message.offset,
        original_value: original.text,
        failed_at: now.toISOString(),
      });
      if (address?.reply_to) {
        replies.push({
          key: address.reply_to,
          value: {
            request_id: address.request_id,
            reply_to: address.reply_to,
            status: 'rejected',
            alerts: [],
            error: { error: 'invalid_payload', message: reason },
          },
        });
      }
    };

    for (const message of messages) {
      let value: RawAlert.RawAlertValue;
      try {
        value = decodeRawAlert(message.value);
      } catch (error) {
        const reason = error instanceof ContractViolationError ? error.message : String(error);
        reject(message, reason, replyAddress(message.value));
        continue;
      }
      const integration = await this.findIntegration(value.integration_id);
      if (!integration) {
        reject(message, `integration ${value.integration_id} is unknown`, value);
        continue;
      }
      if (integration.project_id !== value.project_id) {
        reject(message, `integration ${value.integration_id} does not belong to project ${value.project_id}`, value);
        continue;
      }
      // received_at stands for "now" (spec 2.2 default start time), so a redelivery gives the same alert.
      const receivedAt = new Date(value.received_at);
      const candidates = alertCandidates(
        value.payload as JsonValue,
        { tier: integration.project_tier, payloadFieldMapping: integration.payload_field_mapping },
        Number.isNaN(receivedAt.getTime()) ? now : receivedAt,
      );
      if (!candidates.ok) {
        reject(message, candidates.reason, value);
        continue;
      }
      work.push({
        message,
        value,
        work: { requestId: value.request_id, projectId: value.project_id, integrationId: value.integration_id, candidates: candidates.candidates },
      });
    }

    let stored = 0;
    const answer = (value: RawAlert.RawAlertValue, result: RawAlertResult) => {
      stored += 1;
      if (!value.reply_to) return;
      replies.push({
        key: value.reply_to,
        value: { request_id: value.request_id, reply_to: value.reply_to, status: 'processed', alerts: result.alerts },
      });
    };
    if (work.length > 0) {
      try {
        const results = await this.repository.store(
          work.map((entry) => entry.work),
          now,
        );
        results.forEach((result, index) => answer(work[index].value, result));
      } catch (error) {
        if (!isDataError(error)) throw error;
        // One message the database refuses must not block its partition for ever: store the
        // messages one by one and dead-letter only the one that cannot be stored.
        for (const entry of work) {
          try {
            const [result] = await this.repository.store([entry.work], now);
            answer(entry.value, result);
          } catch (single) {
            if (!isDataError(single)) throw single;
            reject(entry.message, `the alert cannot be stored: ${(single as Error).message}`, entry.value);
          }
        }
      }
    }
    return { replies, deadLetters, stored };
  }

  private async findIntegration(id: string) {
    const deadline = Date.now() + this.options.integrationLookupTimeoutMs;
    for (;;) {
      const found = this.integrations.findById(id);
      if (found || Date.now() >= deadline) return found;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}
