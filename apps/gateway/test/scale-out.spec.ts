import { KafkaNames } from '@alert-ingestion/kafka';
import { Topic, TOPIC_SPECS } from '@alert-ingestion/contracts';
import { consumerGroupAssignment, createTestDatabase, createTestTopics, eventually, serviceEnv, ServiceProcess, startService, testKafka, TestDatabase, TestTopics } from '@alert-ingestion/testing';
import { Admin, logLevel, Partitioners } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { Pool } from 'pg';

const ADMIN_TOKEN = 'test-admin-token-for-the-scale-out';
/** Messages are keyed by integration: enough integrations that every processor has some to process. */
const INTEGRATIONS = 24;
const ALERTS_PER_SECOND = 300;
const STREAM_MS = 15_000;
const KILL_AT_MS = 5_000;
/** The killed processor leaves the group when its session expires (10 s by default). */
const SESSION_TIMEOUT_MS = 6_000;
/**
 * Shorter than the time the killed processor's partitions stay unconsumed (its session timeout),
 * so that requests waiting on them get 202 and the test sees those alerts stored later too.
 */
const REPLY_TIMEOUT_MS = 3_000;
const RAW_PARTITIONS = TOPIC_SPECS.find((spec) => spec.topic === Topic.RawAlerts)!.partitions;

interface Integration {
  id: string;
  path: string;
  key: string;
  /** The partition of alerts.raw.v1 its raw alerts go to (the gateway keys them by integration id). */
  partition: number;
}

interface Sent {
  title: string;
  gateway: number;
  integration: Integration;
  sentAt: number;
  answeredAt?: number;
  status?: number;
  body?: unknown;
  error?: string;
}

function postJson(agent: Agent, url: string, body: string, key: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Authorization: `Bearer ${key}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || 'null') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Scale-out on one machine (docs/operating.md "Sizing partitions and replicas"): two gateways and three
 * processors on one broker, one database and one topic prefix, under a steady stream of distinct
 * alerts sent round-robin to both gateways, while one processor is killed mid-stream.
 *
 * SIGKILL rather than SIGTERM: a crash is the harder case and covers what a graceful stop does.
 * The killed processor commits no offsets and says goodbye to nobody: its partitions stay
 * unconsumed until its session expires, what it stored without committing the offsets is
 * redelivered to another processor (which must answer from processed_raw_alerts, not store it
 * again), and the replies it had not sent must still reach the right gateway. A SIGTERM'd
 * processor commits and leaves the group at once, a subset of this path.
 */
describe('scale-out: two gateways, three processors, one processor killed mid-stream', () => {
  let database: TestDatabase;
  let topics: TestTopics;
  let db: Pool;
  let admin: Admin;
  const services: ServiceProcess[] = [];
  let gateways: ServiceProcess[] = [];
  let processors: ServiceProcess[] = [];
  let projectId: number;
  const integrations: Integration[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const processorClientId = (index: number) => `${topics.prefix}processor-${index}`;

  async function api<T>(baseUrl: string, method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${baseUrl}/api/v4${path}`, {
      method,
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} -> ${response.status} ${text}`);
    return JSON.parse(text) as T;
  }

  beforeAll(async () => {
    [database, topics] = await Promise.all([createTestDatabase(), createTestTopics()]);
    db = database.pool(2);
    admin = testKafka({ logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    const base = { DATABASE_URL: database.url, KAFKA_TOPIC_PREFIX: topics.prefix, ADMIN_TOKEN };

    // integration-config creates the integrations, then leaves: gateways and processors learn
    // them from the compacted integrations topic.
    const config = await startService(
      'integration-config',
      serviceEnv({ ...base, GATEWAY_PUBLIC_URL: 'http://gateway.invalid', INTEGRATION_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64') }),
    );
    services.push(config);
    const project = await api<{ id: number }>(config.url, 'POST', '/projects', { path: `scale-out-${randomBytes(4).toString('hex')}`, tier: 'premium' });
    projectId = project.id;
    const partitioner = Partitioners.DefaultPartitioner();
    const partitionMetadata = Array.from({ length: RAW_PARTITIONS }, (_, partitionId) => ({ partitionId, leader: 0, partitionErrorCode: 0, replicas: [0], isr: [0] }));
    for (let n = 0; n < INTEGRATIONS; n++) {
      const created = await api<{ id: number; url: string; authorization_key: string }>(config.url, 'POST', `/projects/${project.id}/alert_integrations`, {
        type: 'http',
        name: `Endpoint ${n}`,
        active: true,
      });
      const id = String(created.id);
      const partition = partitioner({ topic: new KafkaNames(topics.prefix).topic(Topic.RawAlerts), partitionMetadata, message: { key: id, value: null } });
      integrations.push({ id, path: new URL(created.url).pathname, key: created.authorization_key, partition });
    }
    await config.stop();

    const processorEnv = (index: number) =>
      serviceEnv({ ...base, KAFKA_CLIENT_ID: processorClientId(index), PROCESSOR_SESSION_TIMEOUT_MS: String(SESSION_TIMEOUT_MS) });
    [processors, gateways] = await Promise.all([
      Promise.all([0, 1, 2].map((index) => startService('alert-processor', processorEnv(index)))),
      Promise.all([0, 1].map(() => startService('gateway', serviceEnv({ ...base, GATEWAY_REPLY_TIMEOUT_MS: String(REPLY_TIMEOUT_MS) })))),
    ]);
    services.push(...processors, ...gateways);
    // The stream starts once the group has settled with all three processors.
    await eventually(
      async () => {
        const { state, owners } = await consumerGroupAssignment(admin, `${topics.prefix}alert-processor`, new KafkaNames(topics.prefix).topic(Topic.RawAlerts));
        expect(state).toBe('Stable');
        expect([...owners.keys()].sort()).toEqual([0, 1, 2].map(processorClientId).sort());
        expect([...owners.values()].flat().sort((a, b) => a - b)).toEqual(Array.from({ length: RAW_PARTITIONS }, (_, n) => n));
      },
      60_000,
      250,
    );
  }, 150_000);

  afterAll(async () => {
    agent.destroy();
    await Promise.all(services.map((service) => service.stop()));
    await admin?.disconnect();
    await db?.end();
    await topics?.drop();
    await database?.drop();
  }, 60_000);

  it('stores every acknowledged alert exactly once, answers each 200 with its own alert, and moves the partitions to the survivors', async () => {
    const groupId = `${topics.prefix}alert-processor`;
    const rawTopic = new KafkaNames(topics.prefix).topic(Topic.RawAlerts);
    const before = await consumerGroupAssignment(admin, groupId, rawTopic);
    // Kill the processor with the most integrations on its partitions: the one whose loss is felt most.
    const load = (partitions: number[]) => integrations.filter((integration) => partitions.includes(integration.partition)).length;
    const victimIndex = [0, 1, 2].sort((a, b) => load(before.owners.get(processorClientId(b))!) - load(before.owners.get(processorClientId(a))!))[0];
    const victim = processors[victimIndex];
    const movedPartitions = before.owners.get(processorClientId(victimIndex))!;
    expect(load(movedPartitions)).toBeGreaterThan(0);

    const sends: Sent[] = [];
    const inFlight: Array<Promise<void>> = [];
    const started = Date.now();
    let killedAt = 0;
    let rebalancedAt = 0;
    let watching: Promise<void> | undefined;
    const interval = 1000 / ALERTS_PER_SECOND;
    // Paced by the clock, not by the answers: a stalled partition does not slow the stream down.
    for (let n = 0; Date.now() - started < STREAM_MS; n++) {
      const due = started + n * interval;
      const early = due - Date.now();
      if (early > 0) await new Promise((resolve) => setTimeout(resolve, early));
      if (!killedAt && Date.now() - started >= KILL_AT_MS) {
        victim.kill('SIGKILL');
        killedAt = Date.now();
        watching = (async () => {
          for (;;) {
            const { owners } = await consumerGroupAssignment(admin, groupId, rawTopic).catch(() => ({ owners: new Map<string, number[]>() }));
            const survivors = [...owners.keys()].sort();
            const owned = [...owners.values()].flat().sort((a, b) => a - b);
            if (!survivors.includes(processorClientId(victimIndex)) && owned.length === RAW_PARTITIONS) {
              rebalancedAt = Date.now();
              return;
            }
            if (Date.now() - killedAt > 60_000) return;
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        })();
      }
      const gateway = n % gateways.length;
      const integration = integrations[Math.floor(n / gateways.length) % integrations.length];
      const sent: Sent = { title: `scale-out ${n}`, gateway, integration, sentAt: Date.now() };
      sends.push(sent);
      inFlight.push(
        postJson(agent, `${gateways[gateway].url}${integration.path}`, JSON.stringify({ title: sent.title, sequence: n }), integration.key).then(
          (answer) => {
            sent.answeredAt = Date.now();
            sent.status = answer.status;
            sent.body = answer.body;
          },
          (error: Error) => {
            sent.error = error.message;
          },
        ),
      );
    }
    await Promise.all(inFlight);
    await watching;
    await victim.exited;

    // Every request got an answer the contract allows for an accepted alert.
    expect(sends.filter((sent) => sent.error !== undefined || (sent.status !== 200 && sent.status !== 202)).map((sent) => [sent.title, sent.status, sent.error])).toEqual([]);
    const ok = sends.filter((sent) => sent.status === 200);
    const accepted = sends.filter((sent) => sent.status === 202);
    // The moved partitions stood still for longer than the reply timeout: some answers were 202.
    expect(accepted.length).toBeGreaterThan(0);

    // Every acknowledged alert, 202s included once processed, is stored exactly once with events 1.
    const stored = new Map<string, { iid: number; copies: number; events: number }>();
    await eventually(
      async () => {
        const { rows } = await db.query<{ title: string; iid: number; copies: string; events: string }>(
          `SELECT title, min(iid) AS iid, count(*) AS copies, sum(events) AS events FROM alerts WHERE project_id = $1 GROUP BY title`,
          [projectId],
        );
        stored.clear();
        for (const row of rows) stored.set(row.title, { iid: row.iid, copies: Number(row.copies), events: Number(row.events) });
        expect(stored.size).toBe(sends.length);
      },
      60_000,
      500,
    );
    const wrong = sends.filter((sent) => stored.get(sent.title)?.copies !== 1 || stored.get(sent.title)?.events !== 1);
    expect(wrong.map((sent) => [sent.title, stored.get(sent.title)])).toEqual([]);

    // Each 200 names the alert its own request created: no reply answered another request, on the
    // same gateway or the other one.
    const misanswered = ok.filter((sent) => JSON.stringify(sent.body) !== JSON.stringify([{ iid: stored.get(sent.title)!.iid, title: sent.title }]));
    expect(misanswered.map((sent) => [sent.title, sent.gateway, sent.body])).toEqual([]);
    expect(new Set(ok.map((sent) => sent.gateway))).toEqual(new Set([0, 1]));

    // The killed processor's partitions moved to the two survivors, who own every partition once.
    expect(rebalancedAt).toBeGreaterThan(0);
    const after = await consumerGroupAssignment(admin, groupId, rawTopic);
    const survivors = [0, 1, 2].filter((index) => index !== victimIndex).map(processorClientId);
    expect([...after.owners.keys()].sort()).toEqual(survivors.sort());
    expect([...after.owners.values()].flat().sort((a, b) => a - b)).toEqual(Array.from({ length: RAW_PARTITIONS }, (_, n) => n));
    const movedTo = survivors.map((clientId) => after.owners.get(clientId)!.filter((partition) => movedPartitions.includes(partition)));
    expect(movedTo.flat().sort((a, b) => a - b)).toEqual(movedPartitions);

    // Alerts on the moved partitions were answered 200 again after the kill: the survivors took over.
    const onMoved = sends.filter((sent) => movedPartitions.includes(sent.integration.partition) && sent.sentAt > killedAt);
    const firstAfterKill = onMoved.filter((sent) => sent.status === 200).sort((a, b) => a.answeredAt! - b.answeredAt!)[0];
    expect(firstAfterKill).toBeDefined();
    const slowest = Math.max(...sends.map((sent) => sent.answeredAt! - sent.sentAt));
    process.stderr.write(
      [
        `scale-out: ${sends.length} distinct alerts in ${((sends[sends.length - 1].sentAt - started) / 1000).toFixed(1)} s ` +
          `(${(sends.length / ((sends[sends.length - 1].sentAt - started) / 1000)).toFixed(0)}/s) to 2 gateways, ${INTEGRATIONS} integrations, 3 processors; ` +
          `processor-${victimIndex} (partitions ${movedPartitions.join(',')}) SIGKILLed at +${((killedAt - started) / 1000).toFixed(1)} s`,
        `  answers: ${ok.length} x 200, ${accepted.length} x 202 (no reply within ${REPLY_TIMEOUT_MS / 1000} s), 0 other; stored ${stored.size} alerts, each once with events 1`,
        `  recovery: partitions reassigned to the 2 survivors ${((rebalancedAt - killedAt) / 1000).toFixed(1)} s after the kill (session timeout ${SESSION_TIMEOUT_MS / 1000} s); ` +
          `first 200 for an alert sent after the kill to a moved partition at +${((firstAfterKill.answeredAt! - killedAt) / 1000).toFixed(1)} s; slowest answer ${(slowest / 1000).toFixed(1)} s`,
        '',
      ].join('\n'),
    );
  }, 120_000);
});
