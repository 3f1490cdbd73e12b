/**
 * The reference point of the receive benchmark's target: "the simplest receiver
 * that does one INSERT per request". A bare node:http server that parses each JSON body, stores it
 * with one autocommitted INSERT (durable before the answer, like a 200 of the real pipeline) and
 * answers `[{iid, title}]`. No authentication, no Kafka, no grouping: it shows what this machine
 * allows for a receiver that does the least possible work.
 *
 * Started by baseline.bench.ts with BASELINE_DATABASE_URL and PORT; prints `listening <port>`.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'pg';

const pool = new Pool({ connectionString: process.env['BASELINE_DATABASE_URL'], max: 16 });

function answer(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

async function receive(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readBody(request);
  let alert: { title?: unknown };
  try {
    alert = JSON.parse(body.toString('utf8')) as { title?: unknown };
  } catch {
    answer(response, 400, { error: 'invalid_json', message: 'The request body is not valid JSON.' });
    return;
  }
  const title = typeof alert.title === 'string' ? alert.title : 'New: Alert';
  const stored = await pool.query<{ iid: string }>('INSERT INTO baseline_alerts (title, payload) VALUES ($1, $2) RETURNING iid', [title, alert]);
  answer(response, 200, [{ iid: Number(stored.rows[0].iid), title }]);
}

async function main(): Promise<void> {
  await pool.query('CREATE TABLE IF NOT EXISTS baseline_alerts (iid bigserial PRIMARY KEY, title text NOT NULL, payload jsonb NOT NULL, received_at timestamptz NOT NULL DEFAULT now())');
  const server = createServer((request, response) => {
    receive(request, response).catch((error: unknown) => answer(response, 500, { error: 'internal', message: String(error) }));
  });
  server.keepAliveTimeout = 60_000;
  server.listen(Number(process.env['PORT'] ?? 0), '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
  });
  process.on('SIGTERM', () => server.close(() => void pool.end().then(() => process.exit(0))));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
