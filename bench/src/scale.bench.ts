/**
 * `npm run bench:scale`: how the pipeline scales out on one machine. For every configuration of
 * BENCH_SCALE_GATEWAYS ("1,2,4") gateways by BENCH_SCALE_PROCESSORS ("1,2,4") processors, all on one
 * Kafka broker (one of its own from the jars, started once for the run, unless KAFKA_BROKERS is set)
 * and one PostgreSQL (DATABASE_URL, or embedded): a fresh database and topic prefix, the services
 * started fresh (integration-config, the gateways, the processors), INTEGRATIONS Premium projects with
 * one integration each (raw alerts are keyed by integration, so every processor's partitions get
 * traffic; see createIntegrations for why one project each), and BENCH_ROUNDS (1) rounds of BENCH_WARMUP_S (3) s of warm-up and BENCH_DURATION_S
 * (10) s measured, distinct alerts posted at BENCH_CONCURRENCY (64): connection n posts to gateway
 * n mod G, for integration n mod INTEGRATIONS.
 *
 * Each round: alerts/s (200 and 202 answers), p50 and p99, whether every accepted alert was stored;
 * raw alerts per processor transaction (from the processors' metrics; per-batch costs are shared by
 * them); CPU per alert of the gateways (summed), the processors (summed), the broker (when it is its own),
 * PostgreSQL and this process; the bytes the broker sent and received per alert on its connections,
 * by kind of client (broker-traffic.ts, from `ss`); and from alerts.events.v1, read back after the
 * round with a consumer of the project's isolation (read_committed), the events published per
 * second within the measured window and the lag from each alert's storing to its event record
 * (event-lag.ts). After its rounds, each configuration's relays drain a backlog of
 * BENCH_SCALE_BACKLOG (50,000; 0: none) events written into the outbox at once, with no intake
 * (drainBacklog). Every round is logged (stderr); stdout gets one table, a line per configuration
 * (medians of its rounds, and the backlog's pace). Exits 1 when an accepted alert was not stored.
 */
import { AlertEvent, Topic, TOPIC_SPECS } from '@alert-ingestion/contracts';
import { ConsumerGroup, KafkaNames } from '@alert-ingestion/kafka';
import { consumerGroupAssignment, TopicCollector, waitForCount } from '@alert-ingestion/testing';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'pg';
import { brokerTraffic, readBrokerConnections } from './broker-traffic';
import { log } from './bench-database';
import { eventFigures, PublishedEvent } from './event-lag';
import { fillAlertEventOutbox } from './outbox-fill';
import { loadFigures, LoadTarget, postDistinctAlertsTo } from './load-generator';
import { BenchBroker, BenchIntegration, createIntegrations, processorBatches, Stack, startBenchBroker, startPipeline, storedAlerts } from './pipeline-stack';
import { clientCpu, measureCpu, microsPerAlert, processCpuSeconds } from './process-cpu';
import { medianRow, parseInstanceCounts, ScaleLine, ScaleRow, scaleTable, servicesTotal } from './scale-report';

const env = process.env;
const GATEWAYS = parseInstanceCounts(env['BENCH_SCALE_GATEWAYS'] ?? '1,2,4', 'BENCH_SCALE_GATEWAYS');
const PROCESSORS = parseInstanceCounts(env['BENCH_SCALE_PROCESSORS'] ?? '1,2,4', 'BENCH_SCALE_PROCESSORS');
const ROUNDS = Number(env['BENCH_ROUNDS'] ?? 1);
const CONCURRENCY = Number(env['BENCH_CONCURRENCY'] ?? 64);
const DURATION_S = Number(env['BENCH_DURATION_S'] ?? 10);
const WARMUP_S = Number(env['BENCH_WARMUP_S'] ?? 3);
const STORE_TIMEOUT_S = Number(env['BENCH_STORE_TIMEOUT_S'] ?? 120);
/** Alert events written into the outbox at once after a configuration's rounds, to time its relays alone. */
const BACKLOG_EVENTS = Number(env['BENCH_SCALE_BACKLOG'] ?? 50_000);
/** Enough integrations that the raw alert partitions of every one of 4 processors carry some. */
const INTEGRATIONS = 24;
const RAW_PARTITIONS = TOPIC_SPECS.find((spec) => spec.topic === Topic.RawAlerts)!.partitions;

/** One configuration's running pipeline, its project and where its load goes. */
interface Configuration {
  gateways: number;
  processors: number;
  stack: Stack;
  kafka: NonNullable<Stack['kafka']>;
  projectIds: number[];
  targets: LoadTarget[];
  brokerPort: number;
  /** The kind of client process a broker connection belongs to (by the client socket's pid). */
  kindOf: (pid: number | undefined) => string;
}

/** The port of the (first) broker of a KAFKA_BROKERS list, whose connections are counted. */
function brokerPort(brokers: string): number {
  return Number(brokers.split(',')[0].trim().split(':').pop());
}

/** Connection n posts to gateway n mod the gateways, for integration n mod the integrations. */
function loadTargets(gatewayUrls: readonly string[], integrations: readonly BenchIntegration[]): LoadTarget[] {
  return Array.from({ length: CONCURRENCY }, (_, n) => {
    const integration = integrations[n % integrations.length];
    return { url: new URL(integration.path, gatewayUrls[n % gatewayUrls.length]), headers: { Authorization: `Bearer ${integration.key}` } };
  });
}

/** Waits until every processor is a member of the raw alerts group and every partition has its owner, and logs who owns which. */
async function settledProcessors(kafka: Configuration['kafka'], processors: number): Promise<void> {
  const names = new KafkaNames(kafka.prefix);
  const admin = kafka.kafka.admin();
  await admin.connect();
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const assignment = await consumerGroupAssignment(admin, names.group(ConsumerGroup.AlertProcessor), names.topic(Topic.RawAlerts)).catch(() => undefined);
      const owned = assignment ? [...assignment.owners.values()].flat() : [];
      if (assignment?.state === 'Stable' && assignment.owners.size === processors && owned.length === RAW_PARTITIONS) {
        log(`raw alert partitions: ${[...assignment.owners].map(([clientId, partitions]) => `${clientId} ${partitions.join(',')}`).join('; ')}`);
        return;
      }
      if (Date.now() > deadline) throw new Error(`the processors' group did not settle within 60 s: ${JSON.stringify(assignment && [...assignment.owners])}`);
      await sleep(250);
    }
  } finally {
    await admin.disconnect();
  }
}

async function startConfiguration(broker: BenchBroker, gateways: number, processors: number): Promise<Configuration> {
  const stack = await startPipeline(broker, { gateways, processors });
  try {
    const kafka = stack.kafka!;
    const port = brokerPort(broker.brokers);
    await settledProcessors(kafka, processors);
    const integrations = await createIntegrations(stack, INTEGRATIONS);
    const kinds = new Map<number, string>([
      ...stack.pids.gateway.map((pid): [number, string] => [pid, 'gateways']),
      ...stack.pids.processor.map((pid): [number, string] => [pid, 'processors']),
      ...stack.pids.integrationConfig.map((pid): [number, string] => [pid, 'integration-config']),
      [process.pid, 'bench'],
      ...(broker.pid === undefined ? [] : [[broker.pid, 'the broker itself'] as [number, string]]),
    ]);
    return {
      gateways,
      processors,
      stack,
      kafka,
      projectIds: integrations.map((integration) => integration.projectId),
      targets: loadTargets(stack.gatewayUrls, integrations),
      brokerPort: port,
      kindOf: (pid) => (pid === undefined ? 'not visible' : (kinds.get(pid) ?? 'other processes')),
    };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

/** Every alert event of the configuration's topic, read back by a consumer of its own (read_committed, kafkajs's default as the services'), once there are `expected`. */
async function readEvents(configuration: Configuration, expected: number): Promise<PublishedEvent[]> {
  const topic = new KafkaNames(configuration.kafka.prefix).topic(Topic.AlertEvents);
  const collector = await TopicCollector.start<AlertEvent.AlertEventValue>(configuration.kafka.kafka, topic, configuration.kafka.prefix);
  try {
    await collector.waitFor(() => true, expected, STORE_TIMEOUT_S * 1000).catch(() => log(`events: read ${collector.received.length} of ${expected} within ${STORE_TIMEOUT_S} s`));
  } finally {
    await collector.stop();
  }
  return collector.received.map((record) => ({ occurredAtMs: Date.parse(record.value.occurred_at), publishedAtMs: record.timestamp }));
}

/** Bytes per accepted alert, by kind. */
function bytesPerAlert(byKind: Map<string, { sent: number; received: number }>, accepted: number, direction: 'sent' | 'received'): Map<string, number> {
  return new Map([...byKind].map(([kind, bytes]) => [kind, bytes[direction] / Math.max(1, accepted)]));
}

async function measureRound(configuration: Configuration, round: number): Promise<ScaleRow> {
  const { stack, targets, projectIds } = configuration;
  const label = `g${configuration.gateways}-p${configuration.processors}-r${round}`;
  if (WARMUP_S > 0) await postDistinctAlertsTo(targets, { concurrency: CONCURRENCY, label: `${label}-warmup`, stopAfter: { ms: WARMUP_S * 1000 }, firstSequence: 0 });
  const storedBefore = await storedAlerts(stack, projectIds);
  const batchesBefore = await processorBatches(stack);
  const processorSecondsBefore = stack.pids.processor.map((pid) => processCpuSeconds(pid));
  const connectionsBefore = readBrokerConnections(configuration.brokerPort);
  const cpu = measureCpu([...stack.cpuSources, clientCpu]);
  const window = { startMs: Date.now(), endMs: 0 };
  const result = await postDistinctAlertsTo(targets, { concurrency: CONCURRENCY, label, stopAfter: { ms: DURATION_S * 1000 }, firstSequence: 1_000_000_000 });
  window.endMs = Date.now();
  const { seconds } = cpu();
  const traffic = brokerTraffic(connectionsBefore, readBrokerConnections(configuration.brokerPort), configuration.kindOf);
  const processorSeconds = stack.pids.processor.map((pid, n) => processCpuSeconds(pid) - processorSecondsBefore[n]);
  const batchesAfter = await processorBatches(stack);

  const refused = [...result.statuses].filter(([status]) => status !== 200 && status !== 202);
  if (refused.length > 0) log(`${label}: answers other than 200/202 (not counted as alerts): ${refused.map(([status, count]) => `${status}: ${count}`).join(', ')}`);
  const stored = (await waitForCount(() => storedAlerts(stack, projectIds), storedBefore + result.accepted, STORE_TIMEOUT_S * 1000)) - storedBefore;
  const events = eventFigures(await readEvents(configuration, storedBefore + stored), window);
  const row: ScaleRow = {
    gateways: configuration.gateways,
    processors: configuration.processors,
    ...loadFigures(result),
    allStored: stored === result.accepted,
    alertsPerBatch: (batchesAfter.messages - batchesBefore.messages) / Math.max(1, batchesAfter.batches - batchesBefore.batches),
    cpuPerAlert: microsPerAlert(seconds, result.accepted),
    brokerSentPerAlert: bytesPerAlert(traffic.byKind, result.accepted, 'sent'),
    brokerReceivedPerAlert: bytesPerAlert(traffic.byKind, result.accepted, 'received'),
    eventsPerSecond: events.perSecond,
    eventLagP50Ms: events.lagP50Ms,
    eventLagP99Ms: events.lagP99Ms,
  };
  const perKind = (map: ReadonlyMap<string, number>) => [...map].map(([kind, bytes]) => `${kind} ${bytes.toFixed(0)}`).join(', ');
  log(
    [
      `round ${label}: ${row.alertsPerSecond.toFixed(0)} alerts/s, p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms, ` +
        `${row.allStored ? `all ${stored} stored` : `STORED ${stored} OF ${result.accepted}`}, ${row.alertsPerBatch.toFixed(1)} alerts per processor batch`,
      `  CPU µs/alert: ${[...row.cpuPerAlert].map(([name, micros]) => `${name} ${micros.toFixed(0)}`).join(', ')}; ` +
        `processor instances' CPU seconds: ${processorSeconds.map((value) => value.toFixed(2)).join(', ')}`,
      `  broker bytes/alert sent: ${perKind(row.brokerSentPerAlert)} (services ${servicesTotal(row.brokerSentPerAlert).toFixed(0)}); ` +
        `received: ${perKind(row.brokerReceivedPerAlert)} (services ${servicesTotal(row.brokerReceivedPerAlert).toFixed(0)})` +
        `${traffic.closed > 0 ? `; ${traffic.closed} connections closed during the round, not counted` : ''}`,
      `  events: ${events.published} published in the window, ${row.eventsPerSecond.toFixed(0)}/s; lag of ${events.lagged} events of the window's alerts p50 ${row.eventLagP50Ms.toFixed(1)} ms, p99 ${row.eventLagP99Ms.toFixed(1)} ms`,
    ].join('\n'),
  );
  return row;
}

/**
 * The relays' pace without intake: BACKLOG_EVENTS alert events over 2,000 alerts of one bench
 * project written into the outbox in one transaction (outbox-fill.ts), timed from its commit until
 * the processors' relays have published and deleted every row; events per second, NaN when they
 * did not within BENCH_STORE_TIMEOUT_S.
 */
async function drainBacklog(configuration: Configuration): Promise<number> {
  const pool = new Pool({ connectionString: configuration.stack.databaseUrl, max: 1 });
  // An idle client's error (the database dropped at the end) is not the benchmark's.
  pool.on('error', (error) => log(`database: ${error.message}`));
  const emptied = async (deadline: number): Promise<boolean> => {
    while ((await pool.query<{ rows: number }>('SELECT count(*)::int AS rows FROM alert_event_outbox')).rows[0].rows > 0) {
      if (Date.now() > deadline) return false;
      await sleep(20);
    }
    return true;
  };
  try {
    // The rounds' own events first.
    await emptied(Date.now() + STORE_TIMEOUT_S * 1000);
    await fillAlertEventOutbox(pool, { events: BACKLOG_EVENTS, alerts: 2_000, projectId: configuration.projectIds[0] });
    const committed = Date.now();
    if (!(await emptied(committed + STORE_TIMEOUT_S * 1000))) {
      log(`backlog: not drained within ${STORE_TIMEOUT_S} s`);
      return NaN;
    }
    const perSecond = BACKLOG_EVENTS / ((Date.now() - committed) / 1000);
    log(`backlog: ${BACKLOG_EVENTS} events drained by ${configuration.processors} processor(s)' relays in ${((Date.now() - committed) / 1000).toFixed(2)} s, ${perSecond.toFixed(0)} events/s`);
    return perSecond;
  } finally {
    await pool.end();
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const broker = await startBenchBroker();
  const rows: ScaleLine[] = [];
  try {
    log(
      `${broker.describe}; ${GATEWAYS.join(',')} gateways x ${PROCESSORS.join(',')} processors, ${ROUNDS} round(s) each of ${WARMUP_S} s warm-up + ` +
        `${DURATION_S} s at concurrency ${CONCURRENCY}, ${INTEGRATIONS} integrations`,
    );
    for (const gateways of GATEWAYS) {
      for (const processors of PROCESSORS) {
        log(`configuration: ${gateways} gateway(s), ${processors} processor(s)`);
        const configuration = await startConfiguration(broker, gateways, processors);
        try {
          const rounds: ScaleRow[] = [];
          for (let round = 1; round <= ROUNDS; round++) rounds.push(await measureRound(configuration, round));
          const backlogEventsPerSecond = BACKLOG_EVENTS > 0 ? await drainBacklog(configuration) : NaN;
          rows.push({ ...medianRow(rounds), backlogEventsPerSecond });
        } finally {
          await configuration.stack.stop();
        }
      }
    }
  } finally {
    await broker.stop();
  }
  const lines = [
    `bench:scale: ${ROUNDS} round(s) of ${DURATION_S} s per configuration (medians), concurrency ${CONCURRENCY}, ${INTEGRATIONS} integrations, ` +
      `${broker.describe}; ${((Date.now() - started) / 1000).toFixed(0)} s in all`,
    ...scaleTable(rows),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (rows.some((row) => !row.allStored)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
