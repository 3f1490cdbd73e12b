import { AlertEvent, AlertReply } from '@alert-ingestion/contracts';
import { randomUUID } from 'node:crypto';
import { Received } from '@alert-ingestion/testing';
import { ProcessorHarness } from './processor-harness';

type Event = Received<AlertEvent.AlertEventValue>;

/** A reply's answer: all of it but the processor's time for its batch (`stored_ms`), which each delivery measures anew. */
function answerOf({ stored_ms: _storedMs, ...answer }: AlertReply.AlertReplyValue): Omit<AlertReply.AlertReplyValue, 'stored_ms'> {
  return answer;
}

function eventsOf(harness: ProcessorHarness, projectId: string, iid: number): Event[] {
  return harness.events.received.filter((event) => event.key === `${projectId}:${iid}`);
}

// CONTRACT.md "Events": concurrency, exactly-once effect, dead letters, event publication.
describe('alert processor: delivery guarantees', () => {
  const harness = new ProcessorHarness();

  beforeAll(async () => {
    await harness.start({ INTEGRATION_LOOKUP_TIMEOUT_MS: '300' });
  });

  afterAll(async () => {
    await harness.stop();
  });

  describe('concurrency', () => {
    it('40 identical payloads at once make one alert with events 40', async () => {
      const integration = await harness.integration('premium');
      const raws = Array.from({ length: 40 }, () => harness.rawAlert(integration, { title: 'Storm', labels: { a: 1 } }));
      await harness.send(...raws);
      const replies = await Promise.all(raws.map((raw) => harness.replyFor(raw.request_id)));
      expect(replies.every((reply) => reply.status === 'processed' && reply.alerts[0].iid === 1 && reply.alerts.length === 1)).toBe(true);
      const alerts = await harness.alerts(integration.projectId);
      expect(alerts).toHaveLength(1);
      expect(alerts[0].events).toBe(40);
    });

    it('40 identical payloads through 8 integrations (several partitions, concurrent transactions) make one alert', async () => {
      const first = await harness.integration('premium');
      const integrations = [first];
      for (let index = 1; index < 8; index++) integrations.push(await harness.integration('premium', [], first.projectId));
      const raws = Array.from({ length: 40 }, (_, index) => harness.rawAlert(integrations[index % 8], { title: 'Storm' }));
      await harness.send(...raws);
      await Promise.all(raws.map((raw) => harness.replyFor(raw.request_id)));
      const alerts = await harness.alerts(first.projectId);
      expect(alerts.map((alert) => [alert.iid, alert.events])).toEqual([[1, 40]]);
      const events = await harness.events.waitFor((event) => event.key === `${first.projectId}:1`, 40);
      expect(events.map((event) => event.value.type)).toEqual(['alert.created', ...Array<string>(39).fill('alert.grouped')]);
      expect(events.map((event) => event.value.alert.events)).toEqual(Array.from({ length: 40 }, (_, index) => index + 1));
    });
  });

  it('two processor instances sharing the work still make one alert of 40 identical payloads', async () => {
    const second = await harness.startInstance();
    try {
      const first = await harness.integration('premium');
      const integrations = [first];
      for (let index = 1; index < 12; index++) integrations.push(await harness.integration('premium', [], first.projectId));
      const raws = Array.from({ length: 40 }, (_, index) => harness.rawAlert(integrations[index % 12], { title: 'Two instances' }));
      await harness.send(...raws);
      const replies = await Promise.all(raws.map((raw) => harness.replyFor(raw.request_id, 40_000)));
      expect(new Set(replies.map((reply) => reply.alerts[0].iid))).toEqual(new Set([1]));
      expect((await harness.alerts(first.projectId)).map((alert) => [alert.iid, alert.events])).toEqual([[1, 40]]);
    } finally {
      await second.close();
    }
  });

  describe('exactly-once effect', () => {
    it('a redelivered message changes nothing and gets the same answer', async () => {
      const integration = await harness.integration('free');
      const raw = harness.rawAlert(integration, { title: 'Once', fingerprint: 'once' });
      await harness.send(raw);
      const first = await harness.replyFor(raw.request_id);
      await harness.send(raw);
      const both = await harness.replies.waitFor((message) => message.value.request_id === raw.request_id, 2);
      expect(answerOf(both[1].value)).toEqual(answerOf(first));
      expect(first.alerts).toEqual([{ iid: 1, title: 'Once' }]);
      // Each reply says how long its batch took, the repeat's too.
      expect(first.stored_ms).toBeGreaterThan(0);
      expect(both[1].value.stored_ms).toBeGreaterThan(0);
      const alerts = await harness.alerts(integration.projectId);
      expect(alerts.map((alert) => alert.events)).toEqual([1]);
      await harness.events.waitFor((event) => event.key === `${integration.projectId}:1`);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(eventsOf(harness, integration.projectId, 1)).toHaveLength(1);
    });

    it('a message repeated within one batch counts once', async () => {
      const integration = await harness.integration('free');
      const raw = harness.rawAlert(integration, { fingerprint: 'dup' });
      await harness.send(raw, raw, raw);
      const replies = await harness.replies.waitFor((message) => message.value.request_id === raw.request_id, 3);
      expect(replies.map((reply) => reply.value.alerts)).toEqual([[{ iid: 1, title: 'New: Alert' }], [{ iid: 1, title: 'New: Alert' }], [{ iid: 1, title: 'New: Alert' }]]);
      expect((await harness.alerts(integration.projectId)).map((alert) => alert.events)).toEqual([1]);
    });

    it('a message without reply_to is processed without a reply', async () => {
      const integration = await harness.integration('free');
      const silent = harness.rawAlert(integration, { title: 'silent' }, { replyTo: null });
      const marker = harness.rawAlert(integration, { title: 'marker' });
      await harness.send(silent, marker);
      await harness.replyFor(marker.request_id);
      expect(harness.replies.received.some((message) => message.value.request_id === silent.request_id)).toBe(false);
      expect((await harness.alerts(integration.projectId)).map((alert) => alert.title)).toEqual(['silent', 'marker']);
    });
  });

  describe('dead letters', () => {
    it('a message that is not JSON goes to the dead-letter topic with the reason', async () => {
      const integration = await harness.integration('free');
      await harness.send({ key: integration.id, raw: 'not json {' });
      const [letter] = await harness.deadLetters.waitFor((message) => message.value.original_value === 'not json {');
      expect(letter.value).toMatchObject({ reason: 'RawAlertValue: value is not valid JSON', source_topic: `${harness.topics.prefix}alerts.raw.v1` });
    });

    it('a message violating its contract is dead-lettered and the waiting gateway gets a rejected reply', async () => {
      const integration = await harness.integration('free');
      const requestId = randomUUID();
      await harness.send({ key: integration.id, raw: JSON.stringify({ request_id: requestId, reply_to: harness.replyTo, reply_endpoint: harness.replies.endpoint, payload: {} }) });
      const reply = await harness.replyFor(requestId);
      expect(reply).toMatchObject({ status: 'rejected', alerts: [], error: { error: 'invalid_payload' } });
      expect(reply.error?.message).toContain('integration_id');
      const [letter] = await harness.deadLetters.waitFor((message) => message.value.original_value?.includes(requestId) ?? false);
      expect(letter.value.reason).toContain('received_at');
    });

    it('an array element that is not an object rejects the whole request and stores nothing', async () => {
      const integration = await harness.integration('free');
      const raw = harness.rawAlert(integration, [{ title: 'ok' }, 'not an alert']);
      await harness.send(raw);
      expect(await harness.replyFor(raw.request_id)).toMatchObject({
        status: 'rejected',
        error: { error: 'invalid_payload', message: 'element 1 of the array is not a JSON object' },
      });
      await harness.deadLetters.waitFor((message) => message.value.original_value?.includes(raw.request_id) ?? false);
      expect(await harness.alerts(integration.projectId)).toHaveLength(0);
    });

    it('a message of an unknown integration is dead-lettered; the messages around it are processed', async () => {
      const integration = await harness.integration('free');
      const before = harness.rawAlert(integration, { title: 'before' });
      const unknown = harness.rawAlert({ id: '999999999', projectId: integration.projectId, tier: 'free' }, { title: 'lost' });
      const after = harness.rawAlert(integration, { title: 'after' });
      await harness.send(before, unknown, after);
      expect((await harness.replyFor(unknown.request_id)).status).toBe('rejected');
      expect((await harness.replyFor(after.request_id)).alerts).toEqual([{ iid: 2, title: 'after' }]);
      const [letter] = await harness.deadLetters.waitFor((message) => message.value.original_value?.includes(unknown.request_id) ?? false);
      expect(letter.value.reason).toBe('integration 999999999 is unknown');
    });
  });

  describe('events (CONTRACT.md "Events for other services")', () => {
    it('publishes every creation, grouping and resolution once, in order per alert, keyed <project_id>:<iid>', async () => {
      const integration = await harness.integration('premium');
      await harness.receive(integration, { title: 'E' });
      await harness.receive(integration, [{ title: 'E' }, { title: 'E' }]);
      await harness.receive(integration, { title: 'E', end_time: '2024-06-01T00:00:00Z' });
      await harness.receive(integration, { title: 'E' });
      const first = await harness.events.waitFor((event) => event.key === `${integration.projectId}:1`, 4);
      expect(first.map((event) => [event.value.type, event.value.alert.events, event.value.alert.status])).toEqual([
        ['alert.created', 1, 'triggered'],
        ['alert.grouped', 2, 'triggered'],
        ['alert.grouped', 3, 'triggered'],
        ['alert.resolved', 3, 'resolved'],
      ]);
      expect(first[3].value.alert.ended_at).toBe('2024-06-01T00:00:00.000Z');
      expect(first.every((event) => event.value.project_id === Number(integration.projectId) && event.value.alert.iid === 1)).toBe(true);
      expect(first[0].value.alert).toMatchObject({ title: 'E', integration_id: Number(integration.id), payload: { title: 'E' }, hosts: [] });
      expect(new Set(first.map((event) => event.partition)).size).toBe(1);
      const outboxIds = first.map((event) => BigInt(event.headers['outbox-id']));
      expect([...outboxIds].sort((a, b) => (a < b ? -1 : 1))).toEqual(outboxIds);
      const second = await harness.events.waitFor((event) => event.key === `${integration.projectId}:2`);
      expect(second.map((event) => event.value.type)).toEqual(['alert.created']);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(eventsOf(harness, integration.projectId, 1)).toHaveLength(4);
    });

    it('publishes nothing for a recovery payload without a match', async () => {
      const integration = await harness.integration('premium');
      await harness.receive(integration, { title: 'nothing', end_time: '2024-06-01T00:00:00Z' });
      const marker = await harness.receive(integration, { title: 'marker' });
      await harness.events.waitFor((event) => event.key === `${integration.projectId}:${marker.alerts[0].iid}`);
      expect(harness.projectEvents(integration.projectId).map((event) => event.value.alert.title)).toEqual(['marker']);
    });

    it('neither loses nor repeats events across a restart of the processor', async () => {
      const integration = await harness.integration('free');
      await harness.receive(integration, { fingerprint: 'r' });
      await harness.events.waitFor((event) => event.key === `${integration.projectId}:1`, 1);
      await harness.stopApp();
      const whileDown = harness.rawAlert(integration, { fingerprint: 'r' });
      await harness.send(whileDown);
      await harness.startApp();
      await harness.replyFor(whileDown.request_id);
      await harness.receive(integration, { fingerprint: 'r' });
      const events = await harness.events.waitFor((event) => event.key === `${integration.projectId}:1`, 3);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(eventsOf(harness, integration.projectId, 1).map((event) => [event.value.type, event.value.alert.events])).toEqual([
        ['alert.created', 1],
        ['alert.grouped', 2],
        ['alert.grouped', 3],
      ]);
      expect(events).toHaveLength(3);
      // Every outbox row reached the topic exactly once, and the relay removed what it published.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const published = harness.events.received.map((event) => event.headers['outbox-id']);
      expect(published.length).toBe(new Set(published).size);
      const { rows } = await harness.db.query<{ count: string }>('SELECT count(*) AS count FROM alert_event_outbox');
      expect(rows[0].count).toBe('0');
    });
  });
});
