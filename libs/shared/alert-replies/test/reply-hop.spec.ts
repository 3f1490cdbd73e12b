import { AlertReply } from '@alert-ingestion/contracts';
import { randomUUID } from 'node:crypto';
import { createServer, Socket } from 'node:net';
import { ReplyListener, ReplyOutcome, ReplyRefusal, ReplySender } from '../src';

const reply = (requestId = randomUUID()): AlertReply.AlertReplyValue => ({ request_id: requestId, reply_to: 'gateway-1', status: 'processed', alerts: [{ iid: 1, title: 'Disk full' }] });

describe('the reply hop: ReplySender to ReplyListener over HTTP', () => {
  let listener: ReplyListener;
  const waiting = new Set<string>();
  const received: AlertReply.AlertReplyValue[] = [];
  const refusals: ReplyRefusal[] = [];
  const outcomes: Partial<Record<ReplyOutcome, number>> = {};
  const sender = new ReplySender({
    timeoutMs: 500,
    counted: (outcome, count) => (outcomes[outcome] = (outcomes[outcome] ?? 0) + count),
    logger: { warn: () => undefined },
  });

  beforeAll(async () => {
    listener = new ReplyListener({
      host: '127.0.0.1',
      port: 0,
      maxBodyBytes: 4_096,
      logger: { warn: () => undefined },
      deliver: (replies) => {
        received.push(...replies);
        const delivered = replies.filter((value) => waiting.delete(value.request_id)).length;
        return { delivered, late: replies.length - delivered };
      },
      refused: (reason) => refusals.push(reason),
    });
    await listener.start();
  });

  afterAll(() => listener.stop());

  beforeEach(() => {
    received.length = 0;
    refusals.length = 0;
    for (const outcome of Object.keys(outcomes)) delete outcomes[outcome as ReplyOutcome];
  });

  it('delivers one POST per gateway instance with its replies, and counts the ones nobody waited for as late', async () => {
    const [first, second, third] = [reply(), reply(), reply()];
    waiting.add(first.request_id).add(third.request_id);
    sender.send([first, second, third].map((value) => ({ endpoint: listener.endpoint, value })));
    await sender.drain();
    expect(received.map((value) => value.request_id)).toEqual([first.request_id, second.request_id, third.request_id]);
    expect(outcomes).toEqual({ delivered: 2, late: 1 });
  });

  it('refuses a wrong token with 401 before reading the body: nothing delivered, the replies count as failed', async () => {
    sender.send([{ endpoint: { ...listener.endpoint, token: `${listener.endpoint.token}x` }, value: reply() }]);
    await sender.drain();
    expect(received).toEqual([]);
    expect(refusals).toEqual(['unauthorized']);
    expect(outcomes).toEqual({ failed: 1 });

    const answer = await fetch(listener.endpoint.url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"replies":[]}' });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({ error: 'unauthorized', message: expect.any(String) });
  });

  it('refuses what is no reply batch (400), a body above its limit (413) and any other route (404), with {error, message}', async () => {
    const post = (body: string) =>
      fetch(listener.endpoint.url, { method: 'POST', headers: { Authorization: `Bearer ${listener.endpoint.token}`, 'Content-Type': 'application/json' }, body });
    const invalid = await post(JSON.stringify({ replies: [{ ...reply(), status: 'done' }] }));
    const tooLarge = await post(JSON.stringify({ replies: Array.from({ length: 60 }, () => reply()) }));
    const other = await fetch(listener.endpoint.url.replace('/alert-replies', '/metrics'), { headers: { Authorization: `Bearer ${listener.endpoint.token}` } });
    expect([invalid.status, tooLarge.status, other.status]).toEqual([400, 413, 404]);
    expect(await invalid.json()).toEqual({ error: 'invalid_reply', message: expect.stringContaining('status') });
    expect(refusals).toEqual(['invalid', 'too_large', 'not_found']);
    expect(received).toEqual([]);
  });

  it('gives up on a gateway that does not answer within the timeout, and on one nobody listens at', async () => {
    // A socket that accepts and never answers: the POST times out.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as { port: number }).port;
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    try {
      const started = Date.now();
      sender.send([
        { endpoint: { url: `http://127.0.0.1:${silentPort}/alert-replies`, token: 't'.repeat(43) }, value: reply() },
        { endpoint: { url: `http://127.0.0.1:${closedPort}/alert-replies`, token: 't'.repeat(43) }, value: reply() },
      ]);
      await sender.drain();
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(outcomes).toEqual({ failed: 2 });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
