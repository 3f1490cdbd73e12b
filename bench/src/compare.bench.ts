/**
 * `npm run bench:compare`: the pipeline and the simplest durable receiver (baseline-receiver.ts:
 * node:http, one autocommitted INSERT per request) under the same load, in turns, in one run:
 * BENCH_ROUNDS rounds of each, pipeline first, under each load of BENCH_LOADS (default
 * `closed,20,300`): `closed` posts distinct alerts at concurrency BENCH_CONCURRENCY over keep-alive
 * connections, each posting its next alert when the last is answered; a number is an open loop of
 * that many alerts per second (the everyday case: the same offered load for both, at most
 * BENCH_CONCURRENCY in flight, latency counted from when each request was due; BENCH_RATE=N is
 * BENCH_LOADS=N). Each round lasts BENCH_DURATION_S (after BENCH_WARMUP_S of warm-up), checks that every accepted alert was stored,
 * and measures the CPU each process used (from /proc) per alert and the rows PostgreSQL inserted
 * (by table) and the WAL it wrote per alert (postgres-writes.ts), and the pipeline's hops (the
 * gateway's Server-Timing: receive, publish, deliver, store). Prints every round and, per load, the
 * medians and the pipeline against the baseline (throughput, p50, p99 and CPU per alert as ratios).
 *
 * The pipeline is a stack of its own (see pipeline-stack.ts: Kafka from the jars unless
 * KAFKA_BROKERS is set, PostgreSQL at DATABASE_URL or embedded); BENCH_SERVICE_ENV adds variables
 * to its services (`NAME=value,NAME=value`, e.g. DELIVERIES_KEEP_PER_INTEGRATION=0 to compare
 * without deliveries), BENCH_NODE_ARGS Node options to the gateway and the processor (e.g.
 * `--cpu-prof --cpu-prof-dir=/tmp/profiles`). BENCH_SILENCES=N gives the pipeline's project N active
 * silences, each evaluated for every alert and matching none; BENCH_SIGNED=true gives its integration a
 * signing secret and signs every request as Grafana does (HMAC-SHA256 of `timestamp:body`).
 * BENCH_ALERT_SETTINGS=on (default off) turns on the three alert settings of every round's project
 * (create_incident, send_email, auto_close_incident; see alert-workflow.ts), with an owner that has an
 * email address and the processor's SMTP_URL at a real SMTP server in this process; the report ends
 * with the incidents created and the alert emails by status. BENCH_WORKFLOW_APART=true runs the alert
 * workflow apart from intake, as docs/operating.md advises for alert storms: the processor runs the
 * intake role alone and another processor the workflow role alone at CPU niceness 10 (its CPU is
 * counted as `workflow`). BENCH_ESCALATION=on (default off) gives every round's project an escalation
 * policy paging its on-call member at once by a webhook at a real receiver in this process (see
 * escalation.ts), so every alert starts an escalation and sends a page; the report ends with the
 * escalations and pages. BENCH_IDLE_S (10; 0 for none) measures the pipeline idle that many
 * seconds before the first round and again after the last, once every event is published and
 * BENCH_IDLE_SETTLE_S (10) more seconds passed (cores per process, idle-figures.ts), and the report
 * ends with both and the rows left in each churned table (live / dead, size).
 * Exits 1 when an accepted alert was not stored.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { waitForCount, TestSmtpServer, TestWebhookReceiver } from '@alert-ingestion/testing';
import { AlertWorkflowCounts, enableAlertWorkflow, settledAlertWorkflow } from './alert-workflow';
import { enableEscalation, EscalationCounts, escalationLines, settledEscalation } from './escalation';
import { Cleanup, log } from './bench-database';
import { BaselineStack, startBaseline } from './baseline-stack';
import { hopsText, LoadFigures, loadFigures, LoadResult, median, postDistinctAlerts } from './load-generator';
import { createIntegration, processorBatches, Stack, startOwnStack, storedAlerts } from './pipeline-stack';
import { measurePostgresSessions } from './postgres-sessions';
import { measurePostgresWrites, PostgresWrites, writesPerAlertText } from './postgres-writes';
import { clientCpu, CpuSource, measureCpu, microsPerAlert } from './process-cpu';
import { churnedTableLines, churnedTables, IdleCores, idleLines, measureIdle, TableState, unpublishedEvents } from './idle-figures';
import { setTimeout as sleep } from 'node:timers/promises';

const env = process.env;
const ROUNDS = Number(env['BENCH_ROUNDS'] ?? 3);
const CONCURRENCY = Number(env['BENCH_CONCURRENCY'] ?? 64);
/** A load a round runs under: the closed loop (`ratePerSecond` undefined), or an open loop of that many alerts per second. */
interface Load {
  ratePerSecond?: number;
}

/** BENCH_LOADS (or BENCH_RATE, one open loop): `closed` and numbers of alerts per second, comma-separated. */
function loadsOf(text: string): Load[] {
  return text.split(',').map((item) => {
    const name = item.trim();
    if (name === 'closed') return {};
    const rate = Number(name);
    if (!(rate > 0)) throw new Error(`BENCH_LOADS lists \`closed\` and numbers of alerts per second, not ${JSON.stringify(name)}`);
    return { ratePerSecond: rate };
  });
}

const LOADS = loadsOf(env['BENCH_RATE'] ?? env['BENCH_LOADS'] ?? 'closed,20,300');

function loadText(load: Load): string {
  return load.ratePerSecond === undefined ? `closed loop, concurrency ${CONCURRENCY}` : `${load.ratePerSecond} alerts/s offered (open loop, at most ${CONCURRENCY} in flight)`;
}
const DURATION_S = Number(env['BENCH_DURATION_S'] ?? 10);
const WARMUP_S = Number(env['BENCH_WARMUP_S'] ?? 3);
const STORE_TIMEOUT_S = Number(env['BENCH_STORE_TIMEOUT_S'] ?? 120);
const IDLE_S = Number(env['BENCH_IDLE_S'] ?? 10);
const IDLE_SETTLE_S = Number(env['BENCH_IDLE_SETTLE_S'] ?? 10);
const SERVICE_ENV = Object.fromEntries(
  (env['BENCH_SERVICE_ENV'] ?? '')
    .split(',')
    .filter((pair) => pair.includes('='))
    .map((pair) => [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim()]),
);

const SILENCES = Number(env['BENCH_SILENCES'] ?? 0);
const SIGNED = env['BENCH_SIGNED'] === 'true';
const ALERT_SETTINGS = env['BENCH_ALERT_SETTINGS'] ?? 'off';
if (ALERT_SETTINGS !== 'on' && ALERT_SETTINGS !== 'off') throw new Error(`BENCH_ALERT_SETTINGS is on or off, not ${ALERT_SETTINGS}`);
const ALERT_WORKFLOW = ALERT_SETTINGS === 'on';
const WORKFLOW_APART = env['BENCH_WORKFLOW_APART'] === 'true';
const ESCALATION_SETTING = env['BENCH_ESCALATION'] ?? 'off';
if (ESCALATION_SETTING !== 'on' && ESCALATION_SETTING !== 'off') throw new Error(`BENCH_ESCALATION is on or off, not ${ESCALATION_SETTING}`);
const ESCALATION = ESCALATION_SETTING === 'on';

/** The receive path's optional work, as the project and integration of a round are set up for it. */
const FEATURES = [
  SILENCES > 0 ? `${SILENCES} active silences` : '',
  SIGNED ? 'signed requests' : '',
  ALERT_WORKFLOW ? 'alert settings on (create_incident, send_email, auto_close_incident)' : 'alert settings off',
  WORKFLOW_APART ? 'the alert workflow apart from intake (a processor of each role, the workflow at niceness 10)' : '',
  ESCALATION ? 'an escalation policy paging the on-call by webhook at once' : 'no escalation policy',
]
  .filter(Boolean)
  .join(', ');

/** Node options for the gateway and the processor, e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles` to profile them. */
const NODE_ARGS = (env['BENCH_NODE_ARGS'] ?? '').split(' ').filter((arg) => arg !== '');

interface Round extends LoadFigures {
  load: Load;
  /** Server-Timing durations by hop of the answered requests (the pipeline's gateway sends them). */
  hopsMs: ReadonlyMap<string, readonly number[]>;
  system: 'pipeline' | 'baseline';
  accepted: number;
  stored: number;
  /** CPU microseconds per accepted alert, by process. */
  cpuPerAlert: Map<string, number>;
  /** Write system calls per accepted alert, by process (those measured one by one). */
  writesPerAlert: Map<string, number>;
  /** PostgreSQL's CPU per alert by session or server process (the pipeline only). */
  postgresPerAlert?: Map<string, number>;
  /** Raw alert messages per processor transaction during the measured load (the pipeline only). */
  messagesPerBatch?: number;
  /** Rows inserted and WAL written for the round's alerts, until every one was stored. */
  postgresWrites?: PostgresWrites;
}

/** Warm-up, then the measured load with CPU sampled around it, then waits until every accepted alert is stored. */
async function measure(
  system: Round['system'],
  target: {
    url: URL;
    headers: Record<string, string>;
    sign?: (body: string) => Record<string, string>;
    cpuSources: CpuSource[];
    stored: () => Promise<number>;
    batches?: () => Promise<{ batches: number; messages: number }>;
    postgresSessions?: () => () => Promise<Map<string, number>>;
    databaseUrl?: string;
  },
  load: Load,
  round: number,
): Promise<Round> {
  const label = `${system}-${load.ratePerSecond ?? 'closed'}-r${round}`;
  const { ratePerSecond } = load;
  if (WARMUP_S > 0) await postDistinctAlerts(target.url, target.headers, { concurrency: CONCURRENCY, label: `${label}-warmup`, stopAfter: { ms: WARMUP_S * 1000 }, firstSequence: 0, sign: target.sign, ratePerSecond });
  const storedBefore = await target.stored();
  const batchesBefore = await target.batches?.();
  const cpu = measureCpu([...target.cpuSources, clientCpu]);
  const postgresSessions = target.postgresSessions?.();
  const postgresWrites = target.databaseUrl === undefined ? undefined : await measurePostgresWrites(target.databaseUrl);
  const result: LoadResult = await postDistinctAlerts(target.url, target.headers, {
    concurrency: CONCURRENCY,
    ratePerSecond,
    label,
    stopAfter: { ms: DURATION_S * 1000 },
    firstSequence: 1_000_000_000,
    sign: target.sign,
  });
  const { seconds: cpuSeconds, writes } = cpu();
  const postgresSeconds = await postgresSessions?.();
  const batchesAfter = await target.batches?.();
  const refused = [...result.statuses].filter(([status]) => status !== 200 && status !== 202);
  if (refused.length > 0) log(`${label}: answers other than 200/202 (not counted as alerts): ${refused.map(([status, count]) => `${status}: ${count}`).join(', ')}`);
  const stored = (await waitForCount(target.stored, storedBefore + result.accepted, STORE_TIMEOUT_S * 1000)) - storedBefore;
  const writesForRound = await postgresWrites?.();
  return {
    system,
    load,
    ...loadFigures(result),
    hopsMs: result.hopsMs,
    accepted: result.accepted,
    stored,
    cpuPerAlert: microsPerAlert(cpuSeconds, result.accepted),
    postgresPerAlert: postgresSeconds && microsPerAlert(postgresSeconds, result.accepted),
    writesPerAlert: new Map([...writes].map(([name, count]) => [name, count / Math.max(1, result.accepted)])),
    messagesPerBatch:
      batchesBefore && batchesAfter ? (batchesAfter.messages - batchesBefore.messages) / Math.max(1, batchesAfter.batches - batchesBefore.batches) : undefined,
    postgresWrites: writesForRound,
  };
}

/** CPU microseconds per alert of every process together. */
function totalCpu(cpuPerAlert: ReadonlyMap<string, number>): number {
  return [...cpuPerAlert.values()].reduce((sum, micros) => sum + micros, 0);
}

function cpuText(cpuPerAlert: Map<string, number>): string {
  const parts = [...cpuPerAlert].map(([name, micros]) => `${name} ${micros.toFixed(0)}`);
  return `${parts.join(', ')}; total ${totalCpu(cpuPerAlert).toFixed(0)}`;
}

function roundLine(index: number, round: Round): string {
  const storedText = round.stored === round.accepted ? 'all stored' : `STORED ${round.stored} OF ${round.accepted}`;
  const writesText = `   writes/alert: ${[...round.writesPerAlert].map(([name, perAlert]) => `${name} ${perAlert.toFixed(2)}`).join(', ')}`;
  const batchText = round.messagesPerBatch === undefined ? '' : `   ${round.messagesPerBatch.toFixed(1)} alerts per processor batch`;
  const postgresText =
    round.postgresPerAlert === undefined
      ? ''
      : `   PostgreSQL µs/alert by session: ${[...round.postgresPerAlert]
          .filter(([, micros]) => micros >= 0.5)
          .sort(([, a], [, b]) => b - a)
          .map(([name, micros]) => `${name} ${micros.toFixed(0)}`)
          .join(', ')}`;
  const rowsText = round.postgresWrites === undefined ? '' : `   PostgreSQL ${writesPerAlertText(round.postgresWrites, round.accepted)}`;
  const hops = round.hopsMs.size === 0 ? '' : `   hops (Server-Timing medians, ms): ${hopsText(round.hopsMs)}`;
  return `round ${index} ${round.system.padEnd(8)} ${round.alertsPerSecond.toFixed(0).padStart(6)} alerts/s   p50 ${round.p50.toFixed(1).padStart(5)} ms   p99 ${round.p99.toFixed(1).padStart(5)} ms   ${storedText}${hops}   CPU µs/alert: ${cpuText(round.cpuPerAlert)}${writesText}${batchText}${rowsText}${postgresText}`;
}

function summary(rounds: Round[], system: Round['system'], load: Load): { alertsPerSecond: number; p50: number; p99: number; allStored: boolean; cpu: Map<string, number> } {
  const own = rounds.filter((round) => round.system === system && round.load === load);
  const names = [...new Set(own.flatMap((round) => [...round.cpuPerAlert.keys()]))];
  return {
    alertsPerSecond: median(own.map((round) => round.alertsPerSecond)),
    p50: median(own.map((round) => round.p50)),
    p99: median(own.map((round) => round.p99)),
    allStored: own.every((round) => round.stored === round.accepted),
    cpu: new Map(names.map((name) => [name, median(own.map((round) => round.cpuPerAlert.get(name) ?? 0))])),
  };
}

/**
 * Gives the round's project its silences (BENCH_SILENCES) and alert settings (BENCH_ALERT_SETTINGS)
 * and its integration a signing secret (BENCH_SIGNED); returns how to sign a request, or undefined.
 */
async function setUpFeatures(stack: Stack, projectId: number, integrationId: number, receiver?: TestWebhookReceiver): Promise<((body: string) => Record<string, string>) | undefined> {
  if (ALERT_WORKFLOW) await enableAlertWorkflow(stack, projectId);
  if (receiver) await enableEscalation(stack, projectId, receiver);
  const endsAt = new Date(Date.now() + 3_600_000).toISOString();
  for (let index = 0; index < SILENCES; index++) {
    await stack.client.processorApi('POST', `/projects/${projectId}/silences`, {
      matchers: [
        { field: 'service', operator: '=', value: 'checkout' },
        { field: 'title', operator: '=~', value: `maintenance-${index}-.*` },
      ],
      ends_at: endsAt,
      comment: `bench silence ${index}`,
    });
  }
  if (!SIGNED) return undefined;
  const secret = randomBytes(32).toString('hex');
  await stack.client.management('PUT', `/projects/${projectId}/alert_integrations/${integrationId}`, { signing_secret: secret });
  // The gateway learns the secret from the integrations topic a moment after the answer; the warm-up covers the rest.
  await sleep(2_000);
  return (body) => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    return {
      'X-Grafana-Alerting-Signature': createHmac('sha256', secret).update(`${timestamp}:${body}`).digest('hex'),
      'X-Grafana-Alerting-Signature-Timestamp': timestamp,
    };
  };
}

/** What the alert settings did in the pipeline's projects (warm-ups included). */
function workflowLines(counts: AlertWorkflowCounts, smtp: TestSmtpServer): string[] {
  const statuses = [...counts.notifications].map(([status, count]) => `${status} ${count}`).join(', ') || 'none';
  return [
    'alert workflow (every pipeline project, warm-ups included):',
    `  alerts stored ${counts.alerts}, incidents created ${counts.incidents}`,
    `  alert emails by status: ${statuses}; messages the SMTP server received: ${smtp.received.length}`,
  ];
}

async function main(): Promise<void> {
  const cleanups: Cleanup[] = [];
  let pipeline: Stack | undefined;
  const rounds: Round[] = [];
  const projectIds: number[] = [];
  const smtp = ALERT_WORKFLOW ? await new TestSmtpServer().start() : undefined;
  // The receiver listens on 127.0.0.1: the processor may page it only when told so.
  const receiver = ESCALATION ? await new TestWebhookReceiver().start() : undefined;
  let workflow: AlertWorkflowCounts | undefined;
  let escalation: EscalationCounts | undefined;
  let idle: { before: IdleCores; after: IdleCores; tables: TableState[] } | undefined;
  try {
    const processorEnv = { ...(smtp ? { SMTP_URL: smtp.url } : {}), ...(receiver ? { ESCALATION_WEBHOOK_ALLOW_PRIVATE: 'true' } : {}) };
    pipeline = await startOwnStack({ serviceEnv: SERVICE_ENV, nodeArgs: NODE_ARGS, processorEnv, workflowApart: WORKFLOW_APART });
    const baseline: BaselineStack = await startBaseline(cleanups);
    log(`pipeline: ${pipeline.describe}${Object.keys(SERVICE_ENV).length > 0 ? ` with ${JSON.stringify(SERVICE_ENV)}` : ''}${FEATURES ? `, ${FEATURES}` : ''}; baseline at ${baseline.url.host}`);
    log(`${ROUNDS} rounds of each under each load (${LOADS.map(loadText).join('; ')}), ${DURATION_S} s measured after ${WARMUP_S} s of warm-up`);
    const idleBefore = IDLE_S > 0 && pipeline.databaseUrl ? await measureIdle(pipeline, IDLE_S) : undefined;
    for (const load of LOADS) {
      for (let round = 1; round <= ROUNDS; round++) {
        const { projectId, integrationId, url, key } = await createIntegration(pipeline, 'premium');
        projectIds.push(projectId);
        const stack = pipeline;
        const sign = await setUpFeatures(stack, projectId, integrationId, receiver);
        const measuredPipeline = await measure(
          'pipeline',
          {
            url: new URL(url),
            headers: { Authorization: `Bearer ${key}` },
            sign,
            cpuSources: stack.cpuSources,
            stored: () => storedAlerts(stack, projectId),
            batches: () => processorBatches(stack),
            postgresSessions: stack.databaseUrl === undefined ? undefined : () => measurePostgresSessions(stack.databaseUrl!),
            databaseUrl: stack.databaseUrl,
          },
          load,
          round,
        );
        rounds.push(measuredPipeline);
        log(roundLine(round, measuredPipeline));
        const measuredBaseline = await measure('baseline', { url: baseline.url, headers: {}, cpuSources: baseline.cpuSources, stored: baseline.count, databaseUrl: baseline.databaseUrl }, load, round);
        rounds.push(measuredBaseline);
        log(roundLine(round, measuredBaseline));
      }
    }
    if (ALERT_WORKFLOW) {
      log('waiting for the incident and the email of every alert to settle');
      workflow = await settledAlertWorkflow(pipeline, projectIds, STORE_TIMEOUT_S * 1000);
    }
    if (ESCALATION) {
      log('waiting for the escalation and the first page of every alert to settle');
      escalation = await settledEscalation(pipeline, projectIds, STORE_TIMEOUT_S * 1000);
    }
    if (idleBefore && pipeline.databaseUrl) {
      const databaseUrl = pipeline.databaseUrl;
      await waitForCount(async () => -(await unpublishedEvents(databaseUrl)), 0, STORE_TIMEOUT_S * 1000);
      log(`every event published; the pipeline idle ${IDLE_SETTLE_S} s, then measured for ${IDLE_S} s`);
      await sleep(IDLE_SETTLE_S * 1000);
      const after = await measureIdle(pipeline, IDLE_S);
      idle = { before: idleBefore, after, tables: await churnedTables(databaseUrl) };
    }
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => log(`cleanup: ${String(error)}`));
    await pipeline?.stop();
    await smtp?.stop();
    await receiver?.stop();
  }

  const perLoad = LOADS.map((load) => ({ load, ours: summary(rounds, 'pipeline', load), theirs: summary(rounds, 'baseline', load) }));
  const lines = [
    `bench:compare: ${ROUNDS} rounds each under each load, ${DURATION_S} s per round${Object.keys(SERVICE_ENV).length > 0 ? `, services with ${JSON.stringify(SERVICE_ENV)}` : ''}${FEATURES ? `, ${FEATURES}` : ''}`,
    ...perLoad.flatMap(({ load, ours, theirs }) => [
      `${loadText(load)}:`,
      ...rounds.filter((round) => round.load === load).map((round, index) => roundLine(Math.floor(index / 2) + 1, round)),
      '  medians:',
      `  pipeline ${ours.alertsPerSecond.toFixed(0)} alerts/s, p50 ${ours.p50.toFixed(1)} ms, p99 ${ours.p99.toFixed(1)} ms, ${ours.allStored ? 'every alert stored' : 'ALERTS MISSING'}; CPU µs/alert: ${cpuText(ours.cpu)}`,
      `  baseline ${theirs.alertsPerSecond.toFixed(0)} alerts/s, p50 ${theirs.p50.toFixed(1)} ms, p99 ${theirs.p99.toFixed(1)} ms, ${theirs.allStored ? 'every alert stored' : 'ALERTS MISSING'}; CPU µs/alert: ${cpuText(theirs.cpu)}`,
      `  pipeline / baseline: throughput ${(ours.alertsPerSecond / theirs.alertsPerSecond).toFixed(2)}x, CPU per alert ${(totalCpu(ours.cpu) / totalCpu(theirs.cpu)).toFixed(2)}x, p50 ${ours.p50.toFixed(1)} against ${theirs.p50.toFixed(1)} ms, p99 ${ours.p99.toFixed(1)} against ${theirs.p99.toFixed(1)} ms`,
    ]),
    ...(workflow && smtp ? workflowLines(workflow, smtp) : []),
    ...(escalation && receiver ? escalationLines(escalation, receiver) : []),
    ...(idle
      ? [
          `pipeline idle before the rounds (${IDLE_S} s):`,
          ...idleLines(idle.before),
          `pipeline idle after the rounds (${IDLE_S} s, once every event was published and ${IDLE_SETTLE_S} s passed):`,
          ...idleLines(idle.after),
          'churned tables after the rounds (live / dead rows, size):',
          ...churnedTableLines(idle.tables),
        ]
      : []),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (perLoad.some(({ ours, theirs }) => !ours.allStored || !theirs.allStored)) process.exitCode = 1;
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
