import { AddressedReply } from '@alert-ingestion/alert-replies';
import { DeadLetter, RawAlert } from '@alert-ingestion/contracts';
import {
  AlertAction,
  AlertBatchPlan,
  admitRawAlert,
  decodeRawAlert,
  DecodedRawAlert,
  planAlertBatch,
  RawAlertIntake,
  RawAlertMessage,
  rejectAdmitted,
  RejectedRawAlert,
  stateKeys,
} from '@alert-ingestion/alerts-domain';
import { AlertBatchRepository } from '@alert-ingestion/alerts-data';
import { sqlState } from '@alert-ingestion/sql';
import { IntegrationLookup } from './integration-lookup';

export type { RawAlertMessage } from '@alert-ingestion/alerts-domain';

export interface DeadLetterOut {
  value: DeadLetter.DeadLetterValue;
  /** The X-Request-Id of the request the message came from (rawAlertRequestId), when it can be read. */
  requestId: string | undefined;
}

export interface BatchOutcome {
  /** For the gateway instances waiting: each reply with its instance's reply endpoint. */
  replies: AddressedReply[];
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
 * PostgreSQL refused the data itself (SQLSTATE class 22 data exception, 23 integrity violation,
 * 54 program limit): running the same statement again can never succeed.
 */
function isDataError(error: unknown): boolean {
  const state = sqlState(error) ?? '';
  return state.startsWith('22') || state.startsWith('23') || state.startsWith('54');
}

/**
 * One batch of alerts.raw.v1 messages from one partition, in offset order: decode, find each
 * integration, admit (raw-alert-intake, pure), then in one transaction read the state the batch
 * needs, plan it (planAlertBatch, pure) and write the plan; then the outcome: `processed` replies,
 * and for the messages that can never be processed dead letters with the reason and a `rejected`
 * reply, so the waiting gateway's caller sees an error instead of a timeout. Posting replies to the
 * waiting gateways, sending dead letters and committing offsets is the caller's job, after this
 * resolves (after the commit).
 */
export class RawAlertBatchProcessor {
  constructor(
    private readonly repository: AlertBatchRepository,
    private readonly integrations: IntegrationLookup,
    private readonly options: RawAlertBatchProcessorOptions,
  ) {}

  async process(partition: number, messages: readonly RawAlertMessage[], now = new Date()): Promise<BatchOutcome> {
    const decoded = messages.map(decodeRawAlert);
    const intake = await this.admit(decoded, now);
    const plans = await this.store(intake, now);
    return this.outcome(partition, plans, now);
  }

  /** Each decoded message against its integration, looked up in batch order. */
  private async admit(decoded: readonly DecodedRawAlert[], now: Date): Promise<RawAlertIntake[]> {
    const intake: RawAlertIntake[] = [];
    for (const entry of decoded) {
      if (!entry.ok) {
        intake.push(entry.rejected);
        continue;
      }
      const integration = await this.findIntegration(entry.raw.integration_id);
      intake.push(admitRawAlert(entry.message, entry.raw, integration, { now, recordDeliveries: this.options.recordDeliveries }));
    }
    return intake;
  }

  /**
   * The batch in one transaction. One message the database refuses must not block its partition for
   * ever: on a data error the messages are stored one by one, and only the one that cannot be stored
   * is rejected.
   */
  private async store(intake: readonly RawAlertIntake[], now: Date): Promise<AlertBatchPlan[]> {
    try {
      return [await this.storeTogether(intake, now)];
    } catch (error) {
      if (!isDataError(error)) throw error;
    }
    const plans: AlertBatchPlan[] = [];
    for (const entry of intake) {
      try {
        plans.push(await this.storeTogether([entry], now));
      } catch (error) {
        if (!isDataError(error) || !entry.admitted) throw error;
        plans.push(await this.storeTogether([rejectAdmitted(entry, `the alert cannot be stored: ${(error as Error).message}`)], now));
      }
    }
    return plans;
  }

  private storeTogether(intake: readonly RawAlertIntake[], now: Date): Promise<AlertBatchPlan> {
    return this.repository.transaction(async (transaction) => {
      const state = await transaction.readState(stateKeys(intake));
      const plan = planAlertBatch(intake, state, now);
      await transaction.write(plan.writes, now);
      return plan;
    });
  }

  /** The replies and dead letters to send, and what the batch did. */
  private outcome(partition: number, plans: readonly AlertBatchPlan[], now: Date): BatchOutcome {
    const outcome: BatchOutcome = { replies: [], deadLetters: [], stored: 0, actions: { created: 0, grouped: 0, resolved: 0, unmatched: 0 } };
    for (const { answers, rejects } of plans) {
      for (const rejected of rejects) {
        outcome.deadLetters.push(this.deadLetter(partition, rejected, now));
        const replyTo = rejected.address?.reply_to;
        const endpoint = rejected.address?.reply_endpoint;
        if (!replyTo || !endpoint || !rejected.address) continue;
        const error = { error: 'invalid_payload', message: rejected.reason };
        outcome.replies.push({ endpoint, value: { request_id: rejected.address.request_id, reply_to: replyTo, status: 'rejected', alerts: [], error } });
      }
      for (const answer of answers) {
        outcome.stored += 1;
        for (const action of answer.actions) outcome.actions[action] += 1;
        if (!answer.replyTo || !answer.replyEndpoint) continue;
        const value = { request_id: answer.requestId, reply_to: answer.replyTo, status: 'processed' as const, alerts: answer.alerts };
        outcome.replies.push({ endpoint: answer.replyEndpoint, value });
      }
    }
    return outcome;
  }

  private deadLetter(partition: number, { message, reason, address }: RejectedRawAlert, now: Date): DeadLetterOut {
    const original = message.value === null ? null : DeadLetter.deadLetterText(message.value.toString());
    const note = original && original.kept < original.length ? ` (original_value truncated to its first ${original.kept} of ${original.length} characters)` : '';
    return {
      value: {
        reason: reason + note,
        source_topic: this.options.sourceTopic,
        source_partition: partition,
        source_offset: message.offset,
        original_value: original?.text ?? null,
        failed_at: now.toISOString(),
      },
      requestId: address ? RawAlert.rawAlertRequestId(address) : undefined,
    };
  }

  /**
   * The integration of a raw alert. The gateway accepted it, so the integration was on the
   * integrations topic then; this view may not have read it yet: the view's freshness policy waits
   * until it has caught up, up to the lookup timeout (absent once caught up means deleted since).
   */
  private findIntegration(id: string) {
    return this.integrations.findFresh(() => this.integrations.findById(id), (found) => found !== undefined, this.options.integrationLookupTimeoutMs);
  }
}
