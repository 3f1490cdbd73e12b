import { AlertReply, ContractViolationError, DeadLetter, decodeMessage, DeliveryRecord, RawAlert } from '@alert-ingestion/contracts';
import { alertCandidates, storableText } from '@alert-ingestion/alerts-domain';
import { isJsonObject, JsonValue } from '@alert-ingestion/json';
import {
  AlertAction,
  AlertBatchRepository,
  AnsweredDelivery,
  DeliveriesRepository,
  DeliveryWork,
  RawAlertResult,
  RawAlertWork,
  sqlState,
} from '@alert-ingestion/alerts-data';
import { IntegrationLookup } from './integration-lookup';

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

export interface DeadLetterOut {
  value: DeadLetter.DeadLetterValue;
  /** The X-Request-Id of the request the message came from (rawAlertRequestId), when it can be read. */
  requestId: string | undefined;
}

export interface BatchOutcome {
  replies: ReplyOut[];
  deadLetters: DeadLetterOut[];
  /** Raw alert messages stored (or found already stored) in this batch. */
  stored: number;
  /** How many alert payloads of the batch did what (none for a redelivered message: it changed nothing). */
  actions: Record<AlertAction, number>;
}

export interface RawAlertBatchProcessorOptions {
  /**
   * How long to wait for an integration the registry does not know yet (it may have been created
   * a moment ago and the gateway's view is ahead of ours) before the message is dead-lettered.
   */
  integrationLookupTimeoutMs: number;
  sourceTopic: string;
  /** Record every message's delivery with its answer (CONTRACT.md "deliveries"). */
  recordDeliveries: boolean;
}

/**
 * The delivery of a raw alert message: one per HTTP request (its delivery_id, or its request_id),
 * named by its X-Request-Id, with the body as received (what the gateway spliced into the message).
 */
export function deliveryOf(message: RawAlertMessage, value: RawAlert.RawAlertValue): DeliveryWork {
  const received = (message.value && RawAlert.rawAlertBody(message.value)) ?? Buffer.from(JSON.stringify(value.payload));
  const { body, body_size, body_truncated } = DeliveryRecord.deliveryBody(received);
  return {
    deliveryId: value.delivery_id ?? value.request_id,
    requestId: RawAlert.rawAlertRequestId(value),
    receivedAt: new Date(value.received_at),
    body: storableText(body),
    bodySize: body_size,
    bodyTruncated: body_truncated,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What names a raw alert message and where its answer goes, as far as they can be read. */
interface MessageAddress {
  request_id: string;
  delivery_id?: string | null;
  x_request_id?: string | null;
  reply_to?: string | null;
}

/** The address of a message that failed its contract, when its request_id can still be read. */
function readableAddress(value: Buffer | null): MessageAddress | undefined {
  if (value === null) return undefined;
  try {
    const plain: unknown = JSON.parse(value.toString());
    if (!isJsonObject(plain)) return undefined;
    const { request_id, delivery_id, x_request_id, reply_to } = plain;
    if (typeof request_id !== 'string' || !UUID.test(request_id)) return undefined;
    const text = (field: unknown) => (typeof field === 'string' && field !== '' ? field : undefined);
    return { request_id, delivery_id: text(delivery_id), x_request_id: text(x_request_id), reply_to: text(reply_to) };
  } catch {
    return undefined;
  }
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
 * gets a `rejected` reply so its caller sees an error instead of a timeout),
 * look up each integration, turn payloads into alert candidates (pure domain rules), store the whole
 * batch in one transaction, and build the `processed` replies. Sending replies and dead letters, and
 * committing offsets, is the caller's job, after this resolves (i.e. after the database commit).
 */
export class RawAlertBatchProcessor {
  constructor(
    private readonly repository: AlertBatchRepository,
    private readonly deliveries: DeliveriesRepository,
    private readonly integrations: IntegrationLookup,
    private readonly options: RawAlertBatchProcessorOptions,
  ) {}

  async process(partition: number, messages: readonly RawAlertMessage[], now = new Date()): Promise<BatchOutcome> {
    const replies: ReplyOut[] = [];
    const deadLetters: DeadLetterOut[] = [];
    const work: Array<{ message: RawAlertMessage; value: RawAlert.RawAlertValue; work: RawAlertWork }> = [];

    const rejectedDeliveries: AnsweredDelivery[] = [];
    const reject = (message: RawAlertMessage, reason: string, address: MessageAddress | undefined, value?: RawAlert.RawAlertValue) => {
      if (value && this.options.recordDeliveries) {
        rejectedDeliveries.push({
          projectId: value.project_id,
          integrationId: value.integration_id,
          delivery: deliveryOf(message, value),
          status: 422,
          error: 'invalid_payload',
          alerts: [],
        });
      }
      const original = message.value === null ? null : DeadLetter.deadLetterText(message.value.toString());
      const note = original && original.kept < original.length ? ` (original_value truncated to its first ${original.kept} of ${original.length} characters)` : '';
      deadLetters.push({
        value: {
          reason: reason + note,
          source_topic: this.options.sourceTopic,
          source_partition: partition,
          source_offset: message.offset,
          original_value: original?.text ?? null,
          failed_at: now.toISOString(),
        },
        requestId: address ? RawAlert.rawAlertRequestId(address) : undefined,
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
        value = decodeMessage(RawAlert.RawAlertValue, message.value);
      } catch (error) {
        const reason = error instanceof ContractViolationError ? error.message : String(error);
        reject(message, reason, readableAddress(message.value));
        continue;
      }
      const integration = await this.findIntegration(value.integration_id);
      if (!integration) {
        reject(message, `integration ${value.integration_id} is unknown`, value);
        continue;
      }
      if (integration.project_id !== value.project_id) {
        // Not recorded as a delivery: it would land on another project's integration.
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
        reject(message, candidates.reason, value, value);
        continue;
      }
      work.push({
        message,
        value,
        work: {
          requestId: value.request_id,
          projectId: value.project_id,
          integrationId: value.integration_id,
          candidates: candidates.candidates,
          storedAnswerValidFrom: value.idempotency_key === undefined ? null : new Date(receivedAt.getTime() - RawAlert.IDEMPOTENCY_KEY_LIFETIME_MS),
          ...(this.options.recordDeliveries ? { delivery: deliveryOf(message, value) } : {}),
        },
      });
    }

    let stored = 0;
    const actions: Record<AlertAction, number> = { created: 0, grouped: 0, resolved: 0, unmatched: 0 };
    const answer = (value: RawAlert.RawAlertValue, result: RawAlertResult) => {
      stored += 1;
      for (const action of result.actions) actions[action] += 1;
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
            reject(entry.message, `the alert cannot be stored: ${(single as Error).message}`, entry.value, entry.value);
          }
        }
      }
    }
    if (rejectedDeliveries.length > 0) await this.deliveries.recordAnswered(rejectedDeliveries);
    return { replies, deadLetters, stored, actions };
  }

  /**
   * The integration of a raw alert. The gateway accepted it, so the integration was on the
   * integrations topic then; this view may not have read it yet: wait until it has caught up with
   * the topic, up to the lookup timeout. Caught up and still absent means a tombstone came since
   * (the integration was deleted): that is the answer, waiting longer cannot change it. While the
   * view cannot reach the topic's end (a Kafka hiccup), it tries again shortly.
   */
  private async findIntegration(id: string) {
    const deadline = Date.now() + this.options.integrationLookupTimeoutMs;
    for (;;) {
      const found = this.integrations.findById(id);
      const left = deadline - Date.now();
      if (found || left <= 0) return found;
      if (await this.integrations.awaitLatest(left)) return this.integrations.findById(id);
      await new Promise((resolve) => setTimeout(resolve, Math.min(100, Math.max(0, deadline - Date.now()))));
    }
  }
}
