import { AlertReply, ContractViolationError, validateMessage } from '@alert-ingestion/contracts';
import { secretMatchesSha256, sha256Hex } from '@alert-ingestion/crypto';
import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { ALERT_REPLY_PATH, replyEndpointUrl } from './reply-hop';

/** Why a POST to the reply listener was refused (gateway_reply_requests_refused_total's `reason`). */
export const REPLY_REFUSALS = ['unauthorized', 'invalid', 'too_large', 'not_found'] as const;
export type ReplyRefusal = (typeof REPLY_REFUSALS)[number];

export interface ReplyListenerOptions {
  /** The host of its URL: where the processors reach it. */
  host: string;
  /** The address it binds to; default: `host`. */
  bindHost?: string;
  /** 0: an ephemeral port (tests). */
  port: number;
  /** Largest body accepted: one batch's replies for this instance. */
  maxBodyBytes: number;
  /** Hands the replies to the requests waiting for them and says how many found one. */
  deliver(replies: AlertReply.AlertReplyValue[]): AlertReply.AlertReplyReceipt;
  /** A POST refused, by reason (wrong token, a body that is no reply batch...). */
  refused?(reason: ReplyRefusal): void;
  logger: { warn(message: string): void };
}

/**
 * The gateway instance's end of the reply hop: an HTTP listener on a port of its own (never routed
 * from outside; in Kubernetes only processors may reach it) that takes `POST /alert-replies` with
 * `Authorization: Bearer <token>` and a body of replies (AlertReplyBatchValue). The token is random
 * per instance and travels in the raw alert message's reply_endpoint, so only a processor that read
 * this instance's message can reply to it; a wrong one gets 401 before the body is read. Answers
 * 200 {delivered, late}, or `{error, message}` with 400, 401, 404, 413.
 */
export class ReplyListener {
  /** Random per instance: a restarted gateway gets a new one, and replies for the old one are refused. */
  private readonly token = randomBytes(32).toString('base64url');
  private readonly tokenSha256 = sha256Hex(this.token);
  private readonly server: Server;
  /** Set once listening; one object, which every raw alert of this instance names. */
  private started: AlertReply.ReplyEndpointValue | undefined;

  constructor(private readonly options: ReplyListenerOptions) {
    this.server = createServer((request, response) => this.handle(request, response));
    // Processors keep their connections: longer than their pools keep an idle one.
    this.server.keepAliveTimeout = 30_000;
    this.server.headersTimeout = 31_000;
  }

  /** Where processors send this instance's replies; set once start() resolved. */
  get endpoint(): AlertReply.ReplyEndpointValue {
    if (!this.started) throw new Error('the reply listener has not started');
    return this.started;
  }

  /** True while the listener accepts replies. */
  get listening(): boolean {
    return this.server.listening;
  }

  async start(): Promise<AlertReply.ReplyEndpointValue> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(this.options.port, this.options.bindHost ?? this.options.host, () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.started = Object.freeze({ url: replyEndpointUrl(this.options.host, (this.server.address() as AddressInfo).port), token: this.token });
    return this.started;
  }

  /** Stops accepting replies; requests still waiting get their timeout answer (202). */
  async stop(): Promise<void> {
    if (!this.server.listening) return;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const path = (request.url ?? '').split('?')[0];
    if (path !== ALERT_REPLY_PATH || request.method !== 'POST') {
      this.refuse(request, response, 404, 'not_found', 'not_found', 'This listener takes POST /alert-replies only.');
      return;
    }
    const authorization = request.headers.authorization ?? '';
    const presented = authorization.startsWith('Bearer ') ? authorization.slice('Bearer '.length) : '';
    if (!secretMatchesSha256(presented, this.tokenSha256)) {
      this.refuse(request, response, 401, 'unauthorized', 'unauthorized', 'The reply token is missing or wrong.');
      return;
    }
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > this.options.maxBodyBytes) {
      this.refuse(request, response, 413, 'too_large', 'payload_too_large', `A reply batch takes at most ${this.options.maxBodyBytes} bytes.`);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let refused = false;
    request.on('data', (chunk: Buffer) => {
      if (refused) return;
      size += chunk.length;
      if (size > this.options.maxBodyBytes) {
        refused = true;
        this.refuse(request, response, 413, 'too_large', 'payload_too_large', `A reply batch takes at most ${this.options.maxBodyBytes} bytes.`);
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      if (!refused) this.receive(Buffer.concat(chunks), response);
    });
    request.on('error', () => response.destroy());
  }

  private receive(body: Buffer, response: ServerResponse): void {
    let batch: AlertReply.AlertReplyBatchValue;
    try {
      batch = validateMessage(AlertReply.AlertReplyBatchValue, JSON.parse(body.toString('utf8')));
    } catch (error) {
      const reason = error instanceof ContractViolationError ? error.message : `the body is not JSON: ${(error as Error).message}`;
      this.options.logger.warn(`refused a reply batch: ${reason}`);
      this.options.refused?.('invalid');
      answer(response, 400, { error: 'invalid_reply', message: reason });
      return;
    }
    answer(response, 200, this.options.deliver(batch.replies));
  }

  private refuse(request: IncomingMessage, response: ServerResponse, status: number, reason: ReplyRefusal, error: string, message: string): void {
    this.options.refused?.(reason);
    // The body is not read: the connection closes after the answer rather than carrying it.
    response.setHeader('Connection', 'close');
    answer(response, status, { error, message });
    request.resume();
  }
}

function answer(response: ServerResponse, status: number, body: object): void {
  if (response.headersSent) return;
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}
