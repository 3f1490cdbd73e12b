import { AlertReply } from '@alert-ingestion/contracts';
import { ServiceProcess } from '@alert-ingestion/testing';
import { ProcessorHarness } from './processor-harness';

async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// Exactly-once effect: a processor killed in the middle of a stream and restarted stores every alert
// exactly once, with the right event counts, and publishes every event exactly once.
describe('alert processor: crash and restart (built service, SIGKILL)', () => {
  const harness = new ProcessorHarness();
  let processor: ServiceProcess | undefined;

  beforeAll(async () => {
    await harness.start({}, false);
  }, 120_000);

  afterAll(async () => {
    processor?.kill('SIGKILL');
    await processor?.exited;
    await harness.stop();
  });

  it('neither loses nor doubles an alert, an event count or an event', async () => {
    const integration = await harness.integration('premium');
    processor = await harness.startProcess();
    const raws = Array.from({ length: 1500 }, (_, index) =>
      harness.rawAlert(integration, index % 3 === 0 ? { title: 'Storm', source: 'crash test' } : { title: `Distinct ${index}` }),
    );
    for (let start = 0; start < raws.length; start += 100) {
      await harness.send(...raws.slice(start, start + 100));
      if (start === 500) {
        // Killed while it is busy with the stream: nothing graceful happens.
        processor.kill('SIGKILL');
        await processor.exited;
      }
    }
    processor = await harness.startProcess();

    const processed = async () => {
      const { rows } = await harness.db.query<{ count: string }>('SELECT count(*) AS count FROM processed_raw_alerts');
      return Number(rows[0].count);
    };
    await eventually(async () => (await processed()) === raws.length, 60_000);

    const { rows: alerts } = await harness.db.query<{ title: string; events: number; iid: number }>(
      'SELECT title, events, iid FROM alerts WHERE project_id = $1 ORDER BY iid',
      [integration.projectId],
    );
    expect(alerts).toHaveLength(1001);
    expect(alerts.filter((alert) => alert.title === 'Storm').map((alert) => alert.events)).toEqual([500]);
    expect(alerts.reduce((sum, alert) => sum + alert.events, 0)).toBe(1500);
    expect(alerts.map((alert) => alert.iid)).toEqual(Array.from({ length: 1001 }, (_, index) => index + 1));

    // Every request sent after the kill was answered by the restarted processor. A reply the killed
    // processor had not yet posted when it died is lost (its caller gets 202; the alert is stored,
    // counted above); a redelivered request is answered from the stored result, so every answer a
    // request got is the same.
    const afterKill = raws.slice(600);
    const byRequest = new Map<string, AlertReply.AlertReplyValue[]>();
    await eventually(async () => {
      byRequest.clear();
      for (const reply of harness.replies.received) byRequest.set(reply.value.request_id, [...(byRequest.get(reply.value.request_id) ?? []), reply.value]);
      return afterKill.every((raw) => byRequest.has(raw.request_id));
    }, 30_000);
    const requestIds = new Set(raws.map((raw) => raw.request_id));
    expect([...byRequest.keys()].every((requestId) => requestIds.has(requestId))).toBe(true);
    for (const replies of byRequest.values()) {
      expect(replies.every((reply) => reply.status === 'processed' && JSON.stringify(reply.alerts) === JSON.stringify(replies[0].alerts))).toBe(true);
    }

    // 1500 changes: 1001 creations and 499 groupings, each published once, in order per alert.
    const events = await harness.events.waitFor((event) => event.value.project_id === Number(integration.projectId), 1500, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const all = harness.projectEvents(integration.projectId);
    expect(all).toHaveLength(1500);
    expect(events).toHaveLength(1500);
    const outboxIds = all.map((event) => event.headers['outbox-id']);
    expect(new Set(outboxIds).size).toBe(1500);
    const storm = all.filter((event) => event.value.alert.title === 'Storm');
    expect(storm.map((event) => event.value.alert.events)).toEqual(Array.from({ length: 500 }, (_, index) => index + 1));
    expect(storm.map((event) => event.value.type)).toEqual(['alert.created', ...Array<string>(499).fill('alert.grouped')]);
  }, 180_000);
});
