import { AlertEvent, MAX_ALERT_BODY_BYTES, Topic } from '@alert-ingestion/contracts';
import { testKafka, TopicCollector } from '@alert-ingestion/testing';
import { bearer, post } from './support/http-client';
import { Pipeline, Project } from './support/pipeline';

type Event = AlertEvent.AlertEventValue & { alert: { payload?: unknown; payload_truncated?: true } };

/**
 * Sizes agree end to end: whatever the gateway accepts fits alerts.raw.v1, and the event of any
 * alert fits alerts.events.v1, so one large alert never holds back the events after it.
 */
describe('end to end: the largest acceptable alerts and their events', () => {
  let pipeline: Pipeline;
  let project: Project;
  let events: TopicCollector<Event>;

  beforeAll(async () => {
    pipeline = await Pipeline.start();
    project = await pipeline.createProject('premium');
    events = await TopicCollector.published<Event>(testKafka(), pipeline.topics.prefix, Topic.AlertEvents);
  }, 180_000);

  afterAll(async () => {
    await events?.stop();
    await pipeline?.stop();
  }, 60_000);

  const send = (body: string) => post(project.integration.url, body, { headers: bearer(project.integration.authorization_key) });
  const eventOf = (iid: number) => (event: { key: string | null }) => event.key === `${project.id}:${iid}`;

  it('publishes the event of an alert of nearly 1 MiB, and the events after it', async () => {
    const big = JSON.stringify({ title: 'Nearly 1 MiB', blob: 'x'.repeat(MAX_ALERT_BODY_BYTES - 100) });
    expect(Buffer.byteLength(big)).toBeLessThanOrEqual(MAX_ALERT_BODY_BYTES);
    const sentAt = Date.now();
    expect(await send(big)).toMatchObject({ status: 200, body: [{ iid: 1, title: 'Nearly 1 MiB' }] });
    expect(await send(JSON.stringify({ title: 'Small, right after' }))).toMatchObject({ status: 200, body: [{ iid: 2, title: 'Small, right after' }] });

    const [first] = await events.waitFor(eventOf(1));
    const [second] = await events.waitFor(eventOf(2));
    process.stderr.write(`[message sizes] both events delivered ${Date.now() - sentAt} ms after the 1 MiB alert was sent\n`);
    expect(first.value.alert).toMatchObject({ iid: 1, title: 'Nearly 1 MiB' });
    expect((first.value.alert.payload as { blob: string }).blob).toHaveLength(MAX_ALERT_BODY_BYTES - 100);
    expect(first.value.alert.payload_truncated).toBeUndefined();
    expect(second.value.alert).toMatchObject({ iid: 2, title: 'Small, right after' });
    // Published in the order of the changes (the outbox order).
    expect(BigInt(first.headers['outbox-id'])).toBeLessThan(BigInt(second.headers['outbox-id']));
  });

  it('leaves the payload out of an event that would not fit the topic, and says so; the alert keeps it', async () => {
    // Under 1 MiB as sent, about 2.5 MiB printed again: "1e9" becomes "1000000000".
    const numbers = Array.from({ length: 250_000 }, () => '1e9').join(',');
    const body = `{"title":"Numbers","n":[${numbers}]}`;
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_ALERT_BODY_BYTES);
    expect(await send(body)).toMatchObject({ status: 200, body: [{ iid: 3, title: 'Numbers' }] });
    expect(await send(JSON.stringify({ title: 'After the numbers' }))).toMatchObject({ status: 200 });

    const [event] = await events.waitFor(eventOf(3));
    expect(event.value.alert).toMatchObject({ iid: 3, title: 'Numbers', payload_truncated: true });
    expect(event.value.alert).not.toHaveProperty('payload');
    await events.waitFor(eventOf(4));
    const stored = (await pipeline.alerts(project.id)).find((alert) => alert.iid === 3);
    expect((stored?.payload as { n: number[] }).n).toHaveLength(250_000);
  });
});
