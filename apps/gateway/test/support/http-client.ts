import { Agent, IncomingHttpHeaders, request } from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (or the raw text when it is not JSON). */
  body: unknown;
}

export interface PostOptions {
  headers?: Record<string, string>;
  /** Send without Content-Length (chunked), in pieces of this many bytes. */
  chunkBytes?: number;
  /** Keep-alive connections of a load (default: a connection per request). */
  agent?: Agent;
}

/**
 * POSTs a body with node:http (not fetch, which refuses URLs with credentials: the
 * `http://:key@host/...` form must reach the gateway as a Basic header, as curl and Alertmanager
 * send it). Resolves with the answer even when the server closes the connection before the whole
 * body was written (413).
 */
export function post(url: string, body: string | Buffer, options: PostOptions = {}): Promise<HttpAnswer> {
  const payload = typeof body === 'string' ? Buffer.from(body) : body;
  return new Promise<HttpAnswer>((resolve, reject) => {
    let answered = false;
    const headers: Record<string, string> = { 'Content-Type': 'application/json', ...options.headers };
    if (options.chunkBytes === undefined) headers['Content-Length'] = String(payload.length);
    const req = request(url, { method: 'POST', headers, agent: options.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        answered = true;
        const text = Buffer.concat(chunks).toString();
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // keep the text
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed });
      });
    });
    req.on('error', (error) => {
      // A server that answered early (413) may reset the connection while we are still writing.
      if (!answered) setTimeout(() => (answered ? undefined : reject(error)), 200);
    });
    if (options.chunkBytes === undefined) {
      req.end(payload);
      return;
    }
    const size = options.chunkBytes;
    let offset = 0;
    const writeNext = () => {
      while (offset < payload.length) {
        const chunk = payload.subarray(offset, offset + size);
        offset += size;
        if (!req.write(chunk)) {
          req.once('drain', writeNext);
          return;
        }
      }
      req.end();
    };
    writeNext();
  });
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
export const basic = (username: string, password: string) => ({
  Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
});
