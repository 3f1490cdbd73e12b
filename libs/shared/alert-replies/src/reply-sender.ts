import { AlertReply } from '@alert-ingestion/contracts';
import { Agent, request } from 'node:http';
import { AddressedReply, repliesByEndpoint } from './reply-hop';

/** What became of replies sent: found their request waiting, came too late for it (202 answered), or never arrived. */
export const REPLY_OUTCOMES = ['delivered', 'late', 'failed'] as const;
export type ReplyOutcome = (typeof REPLY_OUTCOMES)[number];

export interface ReplySenderOptions {
  /** How long one POST to a gateway may take; after it the replies count as failed (their callers got or get 202). */
  timeoutMs: number;
  /** `count` replies had `outcome` (alert_processor_replies_total). */
  counted?(outcome: ReplyOutcome, count: number): void;
  logger: { warn(message: string): void };
}

/** A gateway that does not answer is named in the log at most this often. */
const WARN_INTERVAL_MS = 10_000;

/**
 * The processor's end of the reply hop: after a batch's COMMIT, one POST per waiting gateway
 * instance (its reply_endpoint) with that instance's replies, within a short timeout. It never
 * retries and never holds up the partition: a reply that is lost or late costs its caller a 202
 * (the alert is stored either way), and a redelivery answers from the stored idempotency record.
 *
 * Posted with node:http over kept-alive connections rather than fetch: under light load every
 * batch holds one alert, so this POST is made once per alert, and fetch (with its abort signal)
 * cost the processor several times the CPU of a plain request.
 */
export class ReplySender {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly warned = new Map<string, number>();
  private readonly agent = new Agent({ keepAlive: true });

  constructor(private readonly options: ReplySenderOptions) {}

  /**
   * Starts sending the replies of a batch the processor stored in `storedMs` (each reply carries it
   * as `stored_ms`); resolves nothing: the outcome is counted, failures logged.
   */
  send(replies: readonly AddressedReply[], storedMs?: number): void {
    const stamped = storedMs === undefined ? replies : replies.map(({ endpoint, value }) => ({ endpoint, value: { ...value, stored_ms: Math.round(storedMs * 100) / 100 } }));
    for (const { endpoint, replies: group } of repliesByEndpoint(stamped)) {
      const sending = this.post(endpoint, group).finally(() => this.inFlight.delete(sending));
      this.inFlight.add(sending);
    }
  }

  /** Resolves once every POST started has ended (shutdown: at most the timeout), and closes the kept-alive connections. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
    this.agent.destroy();
  }

  private async post(endpoint: AlertReply.ReplyEndpointValue, replies: AlertReply.AlertReplyValue[]): Promise<void> {
    const body: AlertReply.AlertReplyBatchValue = { replies };
    try {
      const response = await this.postJson(endpoint, JSON.stringify(body));
      if (response.status < 200 || response.status > 299) throw new Error(`answered ${response.status} ${response.text.slice(0, 200)}`);
      const receipt = JSON.parse(response.text) as AlertReply.AlertReplyReceipt;
      const delivered = Math.min(Math.max(Number(receipt.delivered) || 0, 0), replies.length);
      this.options.counted?.('delivered', delivered);
      this.options.counted?.('late', replies.length - delivered);
    } catch (error) {
      this.options.counted?.('failed', replies.length);
      this.warn(endpoint.url, `${replies.length} replies to ${endpoint.url} not delivered (their callers get 202): ${describe(error)}`);
    }
  }

  /** One POST of `json` to the endpoint, answered within the timeout (else rejected: no answer in time). */
  private postJson(endpoint: AlertReply.ReplyEndpointValue, json: string): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const headers = { Authorization: `Bearer ${endpoint.token}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) };
      const posting = request(endpoint.url, { method: 'POST', agent: this.agent, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      });
      const timer = setTimeout(() => posting.destroy(new Error('no answer in time')), this.options.timeoutMs);
      posting.on('close', () => clearTimeout(timer));
      posting.on('error', reject);
      posting.end(json);
    });
  }

  private warn(url: string, message: string): void {
    const now = Date.now();
    if (now - (this.warned.get(url) ?? 0) < WARN_INTERVAL_MS) return;
    this.warned.set(url, now);
    if (this.warned.size > 1_000) this.warned.clear();
    this.options.logger.warn(message);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
