import { eventually } from '@alert-ingestion/testing';
import { HttpAnswer, bearer, post } from './support/http-client';
import { Pipeline, Project } from './support/pipeline';

const FINGERPRINTS = 40;
const EVENTS_PER_FINGERPRINT = 5;
const UNIQUE_ALERTS = 200;
const CONCURRENCY = 8;

interface Sent {
  title: string;
  body: Record<string, unknown>;
  answer?: HttpAnswer;
}

/**
 * Exactly-once effect: the processor is SIGKILLed in the middle of a stream of alerts and
 * started again. Every alert the gateway answered 200 or 202 must be stored exactly once, with the
 * right events counter, however Kafka redelivers what the killed processor had not committed.
 */
describe('end to end: the processor is killed mid-stream', () => {
  let pipeline: Pipeline;
  let project: Project;

  beforeAll(async () => {
    pipeline = await Pipeline.start({
      // Short, so requests made while no processor runs get their 202 quickly.
      gateway: { GATEWAY_REPLY_TIMEOUT_MS: '2000' },
      // The killed member leaves the group when its session expires; keep that short.
      processor: { PROCESSOR_SESSION_TIMEOUT_MS: '6000' },
    });
    project = await pipeline.createProject('free');
  }, 180_000);

  afterAll(async () => {
    await pipeline?.stop();
  }, 60_000);

  it('stores every accepted alert exactly once, with the right events counts', async () => {
    const sends: Sent[] = [];
    for (let k = 0; k < FINGERPRINTS; k++) {
      for (let n = 0; n < EVENTS_PER_FINGERPRINT; n++) {
        sends.push({ title: `grouped ${k}`, body: { title: `grouped ${k}`, fingerprint: `crash-test-${k}`, sequence: n } });
      }
    }
    for (let n = 0; n < UNIQUE_ALERTS; n++) sends.push({ title: `unique ${n}`, body: { title: `unique ${n}`, sequence: n } });
    // Interleave, so that groups are in flight on both sides of the crash.
    sends.sort((a, b) => (Number(a.body['sequence']) - Number(b.body['sequence'])) || a.title.localeCompare(b.title));

    let answered = 0;
    let restarted: Promise<void> | undefined;
    let killedAt = -1;
    const queue = [...sends];
    const worker = async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        next.answer = await post(project.integration.url, JSON.stringify(next.body), { headers: bearer(project.integration.authorization_key) });
        answered++;
        if (killedAt === -1 && answered >= sends.length / 4) {
          killedAt = answered;
          pipeline.processor.kill('SIGKILL');
          restarted = pipeline.processor.exited.then(async () => {
            await new Promise((resolve) => setTimeout(resolve, 1_000));
            await pipeline.restartProcessor();
          });
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await restarted;
    expect(killedAt).toBeGreaterThan(0);

    const statuses = sends.map((sent) => sent.answer?.status);
    expect(statuses.filter((status) => status !== 200 && status !== 202)).toEqual([]);
    // The crash really happened mid-stream: some requests were answered without the processor.
    expect(statuses.filter((status) => status === 202).length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);

    const expectedEvents = new Map<string, number>();
    for (const sent of sends) expectedEvents.set(sent.title, (expectedEvents.get(sent.title) ?? 0) + 1);
    const totalEvents = sends.length;

    await eventually(async () => {
      const alerts = await pipeline.alerts(project.id);
      expect(alerts.reduce((sum, alert) => sum + alert.events, 0)).toBe(totalEvents);
    }, 90_000, 500);

    const alerts = await pipeline.alerts(project.id);
    expect(alerts).toHaveLength(FINGERPRINTS + UNIQUE_ALERTS);
    const byTitle = new Map<string, typeof alerts>();
    for (const alert of alerts) byTitle.set(alert.title, [...(byTitle.get(alert.title) ?? []), alert]);
    for (const [title, events] of expectedEvents) {
      const stored = byTitle.get(title) ?? [];
      expect({ title, stored: stored.length }).toEqual({ title, stored: 1 });
      expect({ title, events: stored[0].events }).toEqual({ title, events });
    }
    // A 200 named the alert that holds the payload.
    for (const sent of sends) {
      if (sent.answer?.status !== 200) continue;
      expect(sent.answer.body).toEqual([{ iid: byTitle.get(sent.title)![0].iid, title: sent.title }]);
    }
    expect(new Set(alerts.map((alert) => alert.iid)).size).toBe(alerts.length);
  }, 240_000);
});
