import { AlertEvent } from '@alert-ingestion/contracts';
import { OUTBOX_ID_HEADER } from '@alert-ingestion/outbox';
import { eventually, Received, scrapeMetrics, ServiceProcess } from '@alert-ingestion/testing';
import { ProcessorHarness } from './processor-harness';

const SHARDS = 6;
const INTEGRATIONS = 6;
const ALERTS_PER_INTEGRATION = 6;
/** What each alert goes through, one payload per stage: created, grouped three times, resolved. */
const STAGES = ['alert.created', 'alert.grouped', 'alert.grouped', 'alert.grouped', 'alert.resolved'];

type Event = Received<AlertEvent.AlertEventValue>;

/**
 * Alert events relayed with the work (docs/architecture.md "Relaying events with the work"): three
 * processors built and started as processes, sharing the alert event outbox's shards, one of them
 * SIGKILLed while events are being relayed. Each alert goes through five changes; every event must
 * reach alerts.events.v1 exactly once and in order per alert.
 */
describe('alert processor: alert events relayed by every processor, one killed mid-stream', () => {
  const harness = new ProcessorHarness();
  const processors: ServiceProcess[] = [];

  const ledBy = async (processor: ServiceProcess) => (await scrapeMetrics(processor.url)).value('outbox_shards_led', { outbox: 'alert_events' });
  const publishedBy = async (processor: ServiceProcess) => (await scrapeMetrics(processor.url)).value('outbox_published_total', { outbox: 'alert_events' });

  beforeAll(async () => {
    await harness.start(
      { EVENT_RELAY_SHARDS: String(SHARDS), EVENT_RELAY_REBALANCE_MS: '200', EVENT_RELAY_RETRY_MS: '200', PROCESSOR_SESSION_TIMEOUT_MS: '6000' },
      false,
    );
    processors.push(...(await Promise.all([0, 1, 2].map(() => harness.startProcess()))));
  }, 150_000);

  afterAll(async () => {
    await Promise.all(processors.map((processor) => processor.stop()));
    await harness.stop();
  }, 60_000);

  it('spreads the shards, publishes from every processor, hands the killed one’s shards over, and publishes each event once, in order per alert', async () => {
    // A fair share each: 6 shards over 3 processors.
    await eventually(async () => expect(await Promise.all(processors.map(ledBy))).toEqual([2, 2, 2]), 30_000, 200);

    const integrations = await Promise.all(Array.from({ length: INTEGRATIONS }, () => harness.integration('premium')));
    const projects = new Set(integrations.map((integration) => Number(integration.projectId)));
    const ours = () => harness.events.received.filter((event) => projects.has(event.value.project_id));
    const sendStage = async (stage: number) => {
      const resolving = stage === STAGES.length - 1;
      await harness.send(
        ...integrations.flatMap((integration) =>
          Array.from({ length: ALERTS_PER_INTEGRATION }, (_, n) =>
            harness.rawAlert(integration, { title: `Alert ${n}`, fingerprint: `fp-${n}`, stage, ...(resolving ? { end_time: new Date().toISOString() } : {}) }),
          ),
        ),
      );
    };
    const alerts = INTEGRATIONS * ALERTS_PER_INTEGRATION;

    await sendStage(0);
    await sendStage(1);
    await eventually(async () => expect(ours()).toHaveLength(2 * alerts), 60_000, 200);
    // Every processor published some: each leads two shards, and 36 alerts hash over all six.
    const published = await Promise.all(processors.map(publishedBy));
    expect(published.filter((count) => count > 0).length).toBeGreaterThanOrEqual(2);
    expect(published.reduce((sum, count) => sum + count, 0)).toBe(2 * alerts);

    // Killed while the next stages' events are being written and relayed.
    await sendStage(2);
    await eventually(async () => expect(ours().length).toBeGreaterThan(2 * alerts), 60_000, 20);
    const [victim, ...survivors] = processors;
    victim.kill('SIGKILL');
    await victim.exited;
    processors.shift();
    await sendStage(3);
    await sendStage(4);

    // Its shards went to the two survivors, three each.
    await eventually(async () => expect(await Promise.all(survivors.map(ledBy))).toEqual([3, 3]), 30_000, 200);
    await eventually(async () => expect(ours().length).toBeGreaterThanOrEqual(STAGES.length * alerts), 90_000, 200);
    // Anything doubled would arrive by now (the survivors have led every shard for a while).
    await new Promise((resolve) => setTimeout(resolve, 1_000));

    const events = ours();
    expect(new Set(events.map((event) => event.headers[OUTBOX_ID_HEADER])).size).toBe(events.length);
    expect(events).toHaveLength(STAGES.length * alerts);
    const byAlert = new Map<string, Event[]>();
    for (const event of events) byAlert.set(event.key ?? '', [...(byAlert.get(event.key ?? '') ?? []), event]);
    expect(byAlert.size).toBe(alerts);
    for (const [key, received] of byAlert) {
      expect([key, received.map((event) => event.value.type)]).toEqual([key, STAGES]);
      expect([key, received.slice(0, 4).map((event) => event.value.alert.events)]).toEqual([key, [1, 2, 3, 4]]);
    }
    // The survivors published after the kill.
    expect((await Promise.all(survivors.map(publishedBy))).every((count) => count > 0)).toBe(true);
  }, 240_000);
});
