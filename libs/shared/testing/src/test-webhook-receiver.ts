import { GRAFANA_SIGNATURE_HEADER, SIGNATURE_TIMESTAMP_HEADERS, webhookSignatureDigest } from '@alert-ingestion/crypto';
import { createServer, IncomingMessage, Server } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { AddressInfo } from 'node:net';

/** A webhook request the receiver took, with what it made of its signature. */
export interface ReceivedWebhook {
  /** The URL's path (a receiver serves many URLs: one per webhook target or contact method). */
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  raw: Buffer;
  /** Whether the body was signed, with a fresh timestamp, with the secret set for its path (`secret`); false without one. */
  signatureValid: boolean;
  /** The status answered. */
  status: number;
  receivedAt: Date;
}

/** How old (or how far in the future) a signed timestamp may be, as the gateway takes it: 5 minutes. */
const MAX_SKEW_SECONDS = 300;

/**
 * A real HTTP server in the test's process on an ephemeral port of 127.0.0.1 that takes webhook
 * POSTs as a team's receiver would: it checks each request's signature (HMAC-SHA256 of
 * `{timestamp}:{body}` in X-Grafana-Alerting-Signature, X-Signature-Timestamp within 5 minutes)
 * against the secret given for its path, answers 401 when it does not hold, and keeps every request.
 * `answer` makes a path answer another status (a receiver that is down: 503), `delayMs` slower.
 */
export class TestWebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly secrets = new Map<string, string>();
  private readonly answers = new Map<string, number>();
  private delayMs = 0;
  private server?: Server;

  /** `http://127.0.0.1:<port>` */
  get url(): string {
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      void readBody(request).then(async (raw) => {
        const path = (request.url ?? '/').split('?')[0];
        const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]));
        const signatureValid = this.verify(path, raw, headers);
        const status = !signatureValid ? 401 : (this.answers.get(path) ?? 200);
        let body: Record<string, unknown> = {};
        try {
          body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
        } catch {
          body = {};
        }
        if (this.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
        this.received.push({ path, headers, body, raw, signatureValid, status, receivedAt: new Date() });
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: status < 300 }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The signing secret of a path's requests. */
  secret(path: string, secret: string): void {
    this.secrets.set(path, secret);
  }

  /** Answers a path's requests with `status` from now on (200 again with 200). */
  answer(path: string, status: number): void {
    this.answers.set(path, status);
  }

  /** Waits this long before answering each request (a slow receiver). */
  delay(ms: number): void {
    this.delayMs = ms;
  }

  /** The requests a path received, in order. */
  to(path: string): ReceivedWebhook[] {
    return this.received.filter((request) => request.path === path);
  }

  private verify(path: string, body: Buffer, headers: Record<string, string>): boolean {
    const secret = this.secrets.get(path);
    const signature = headers[GRAFANA_SIGNATURE_HEADER];
    const timestamp = headers[SIGNATURE_TIMESTAMP_HEADERS[1]];
    if (!secret || !signature || !timestamp || !/^\d+$/.test(timestamp) || !/^[0-9a-f]{64}$/i.test(signature)) return false;
    if (Math.abs(Date.now() / 1000 - Number(timestamp)) > MAX_SKEW_SECONDS) return false;
    return timingSafeEqual(Buffer.from(signature, 'hex'), webhookSignatureDigest(secret, body, timestamp));
  }
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}
