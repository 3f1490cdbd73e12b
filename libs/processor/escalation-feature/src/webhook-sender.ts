import { isInternalAddress } from '@alert-ingestion/escalation-domain';
import { SendOutcome } from '@alert-ingestion/workflow-domain';
import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import { request as httpRequest, RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, LookupFunction } from 'node:net';

/** One POST of a page: the URL, the JSON body (as sent and signed) and its headers. */
export interface WebhookPost {
  url: string;
  body: Buffer;
  headers: Record<string, string>;
}

/**
 * Sends a webhook page; an outcome, never a throw, so a refusal is recorded like any other result.
 * Called outside every database transaction, as the workflow's EmailSender is.
 */
export interface WebhookSender {
  send(post: WebhookPost): Promise<SendOutcome>;
}

export interface HttpWebhookSenderOptions {
  /** The longest a page's POST may take, connection and answer included. */
  timeoutMs: number;
  /** Whether a page may go to an internal address (ESCALATION_WEBHOOK_ALLOW_PRIVATE): loopback, private networks, link-local. */
  allowInternal: boolean;
}

/** A refusal of the address itself, before anything is sent. */
class InternalAddressError extends Error {}

/**
 * Webhook pages over node:http(s): one request per page, no connection kept. The name is resolved
 * once and the address checked before connecting to it (so a name cannot point elsewhere between a
 * check and the connection), internal addresses refused unless allowed; redirects are not followed
 * (a 3xx is a failure); a 2xx is delivered, anything else (or no answer within the timeout) is a
 * failure to retry.
 */
export class HttpWebhookSender implements WebhookSender {
  constructor(private readonly options: HttpWebhookSenderOptions) {}

  send(post: WebhookPost): Promise<SendOutcome> {
    let url: URL;
    try {
      url = new URL(post.url);
    } catch {
      return Promise.resolve({ ok: false, error: 'not a URL' });
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (isIP(host) !== 0 && !this.options.allowInternal && isInternalAddress(host)) {
      return Promise.resolve({ ok: false, error: `${host} is an internal address: pages are not sent there` });
    }
    const requestOptions: RequestOptions = {
      method: 'POST',
      headers: { ...post.headers, 'content-length': String(post.body.length) },
      lookup: this.lookup(),
      timeout: this.options.timeoutMs,
      agent: false,
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const settle = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        resolve(outcome);
      };
      const request = send(url, requestOptions, (response) => {
        const status = response.statusCode ?? 0;
        response.resume();
        response.on('end', () =>
          settle(
            status >= 200 && status < 300
              ? { ok: true, messageId: post.headers['idempotency-key'] ?? '' }
              : { ok: false, error: status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}` },
          ),
        );
        response.on('error', (error) => settle({ ok: false, error: error.message }));
      });
      const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${this.options.timeoutMs} ms`)), this.options.timeoutMs);
      request.on('timeout', () => request.destroy(new Error(`no answer within ${this.options.timeoutMs} ms`)));
      request.on('error', (error) => settle({ ok: false, error: error instanceof InternalAddressError ? error.message : describe(error) }));
      request.end(post.body);
    });
  }

  /** Resolves a name and refuses it when any of its addresses is internal (unless allowed), answering as the caller asked (one address, or all). */
  private lookup(): LookupFunction {
    return (hostname, options, callback) => {
      dnsLookup(hostname, { family: options.family, hints: options.hints, all: true }, (error, addresses: LookupAddress[]) => {
        if (error) return callback(error, '', 0);
        const internal = addresses.find(({ address }) => isInternalAddress(address));
        if (!this.options.allowInternal && internal) {
          return callback(new InternalAddressError(`${hostname} resolves to an internal address (${internal.address}): pages are not sent there`), '', 0);
        }
        if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
        callback(null, addresses[0].address, addresses[0].family);
      });
    };
  }
}

function describe(error: Error & { code?: string }): string {
  return error.code && !error.message.includes(error.code) ? `${error.code}: ${error.message}` : error.message;
}
