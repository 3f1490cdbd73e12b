import { AlertView } from '@alert-ingestion/contracts';
import { eventually, requireTestEnv, ServiceProcess, TEST_ENV } from '@alert-ingestion/testing';
import { createHmac, randomBytes } from 'node:crypto';
import { bearer, HttpAnswer, post } from './support/http-client';
import { Pipeline, Project } from './support/pipeline';

interface Delivery {
  status: number;
  error: string | null;
  body: string;
}

interface IntegrationAnswer {
  signing_secret: string | null;
  allow_signature_without_timestamp: boolean;
}

/**
 * Replay protection of signed webhooks, through the real stack with two gateway instances sharing
 * the Redis on 127.0.0.1:6379: a valid signature is accepted once while it is fresh, on whichever
 * instance; a repeat of the first request's Idempotency-Key is a retry and gets the first answer;
 * and a Grafana signature needs its timestamp unless the integration allows the timestamp-less form.
 */
describe('end to end: replay protection of signed webhooks', () => {
  let pipeline: Pipeline;
  let second: ServiceProcess;
  const redis = { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_KEY_PREFIX: `alert-ingestion-test:${requireTestEnv(TEST_ENV.runId)}:${randomBytes(3).toString('hex')}:` };

  beforeAll(async () => {
    pipeline = await Pipeline.start({ gateway: redis });
    second = await pipeline.startGateway(redis);
  }, 180_000);

  afterAll(async () => {
    await pipeline?.stop();
  }, 60_000);

  /** A management call's status and body, whatever the status. */
  const call = <T>(method: string, path: string, body?: unknown) => pipeline.managementAnswer<T>(method, path, body);

  const integrationPath = (project: Project) => `/projects/${project.id}/alert_integrations/${project.integration.id}`;
  const hmac = (secret: string, text: string) => createHmac('sha256', secret).update(text).digest('hex');
  const alert = (title: string) => JSON.stringify({ title: `${title} ${randomBytes(4).toString('hex')}` });
  /** The integration's URL at the second gateway instance. */
  const at = (project: Project, gateway?: ServiceProcess) => (gateway ? project.integration.url.replace(/^http:\/\/[^/]+/, gateway.url) : project.integration.url);
  const send = (project: Project, body: string, headers: Record<string, string>, gateway?: ServiceProcess): Promise<HttpAnswer> =>
    post(at(project, gateway), body, { headers: { ...bearer(project.integration.authorization_key), ...headers } });
  /** Grafana's headers with a timestamp: the HMAC of "{timestamp}:{body}". */
  const grafanaSigned = (secret: string, body: string, timestamp = String(Math.floor(Date.now() / 1000))) => ({
    'X-Grafana-Alerting-Signature': hmac(secret, `${timestamp}:${body}`),
    'X-Grafana-Alerting-Signature-Timestamp': timestamp,
  });
  const deliveriesOf = (project: Project, body: string) =>
    pipeline.processorApi<Delivery[]>('GET', `${integrationPath(project)}/deliveries`).then((all) => all.filter((entry) => entry.body === body));

  /** A Premium project whose integration has a signing secret every gateway instance already applies. */
  async function signedProject(): Promise<{ project: Project; secret: string }> {
    const project = await pipeline.createProject('premium');
    const secret = `replay-secret-${randomBytes(12).toString('hex')}`;
    expect((await call('PUT', integrationPath(project), { signing_secret: secret })).status).toBe(200);
    for (const gateway of [undefined, second]) {
      await eventually(async () => expect((await send(project, alert('Probe'), {}, gateway)).body).toMatchObject({ error: 'missing_signature' }), 10_000, 100);
    }
    return { project, secret };
  }

  it('refuses the same signed request a second time as replayed_signature, recorded in deliveries', async () => {
    const { project, secret } = await signedProject();
    const body = alert('Grafana signed once');
    const headers = grafanaSigned(secret, body);
    expect((await send(project, body, headers)).status).toBe(200);

    const replay = await send(project, body, headers);
    expect(replay).toMatchObject({ status: 401, body: { error: 'replayed_signature', message: expect.stringContaining('accepted already') } });
    // The same digest in upper case is the same signature.
    const upper = { ...headers, 'X-Grafana-Alerting-Signature': headers['X-Grafana-Alerting-Signature'].toUpperCase() };
    expect((await send(project, body, upper)).body).toMatchObject({ error: 'replayed_signature' });

    // A new timestamp is a new signature: the sender signs each request anew.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await send(project, body, grafanaSigned(secret, body))).status).toBe(200);

    await eventually(async () => {
      const recorded = await deliveriesOf(project, body);
      expect(recorded.filter((entry) => entry.status === 401).map((entry) => entry.error)).toEqual(['replayed_signature', 'replayed_signature']);
      expect(recorded.filter((entry) => entry.status === 200)).toHaveLength(2);
    }, 15_000, 100);
  });

  it('refuses a GitHub-form signature (no timestamp) sent again: the replay cache is its protection', async () => {
    const { project, secret } = await signedProject();
    const body = alert('GitHub signed');
    const headers = { 'X-Hub-Signature-256': `sha256=${hmac(secret, body)}` };
    expect((await send(project, body, headers)).status).toBe(200);
    expect((await send(project, body, headers)).body).toMatchObject({ error: 'replayed_signature' });
    // A body that differs (a delivery id) is signed differently.
    const next = JSON.stringify({ ...JSON.parse(body), delivery_id: randomBytes(4).toString('hex') });
    expect((await send(project, next, { 'X-Hub-Signature-256': `sha256=${hmac(secret, next)}` })).status).toBe(200);
  });

  it('refuses the replay through another gateway instance sharing Redis', async () => {
    const { project, secret } = await signedProject();
    const body = alert('Replayed elsewhere');
    const headers = grafanaSigned(secret, body);
    expect((await send(project, body, headers)).status).toBe(200);
    expect(await send(project, body, headers, second)).toMatchObject({ status: 401, body: { error: 'replayed_signature' } });
  });

  it('accepts only one of the same signed request sent to both instances at once', async () => {
    const { project, secret } = await signedProject();
    const body = alert('Raced');
    const headers = grafanaSigned(secret, body);
    const answers = await Promise.all([send(project, body, headers), send(project, body, headers, second), send(project, body, headers)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 401, 401]);
  });

  it("answers a retry with the first request's Idempotency-Key with the first answer, on either instance, and refuses other repeats", async () => {
    const { project, secret } = await signedProject();
    const body = alert('Retried with a key');
    const headers = grafanaSigned(secret, body);
    const first = await send(project, body, { ...headers, 'Idempotency-Key': 'grafana-retry-1' });
    expect(first.status).toBe(200);
    const retry = await send(project, body, { ...headers, 'Idempotency-Key': 'grafana-retry-1' }, second);
    const again = await send(project, body, { ...headers, 'Idempotency-Key': 'grafana-retry-1' });
    expect(retry).toMatchObject({ status: 200, body: first.body });
    expect(again).toMatchObject({ status: 200, body: first.body });
    const [{ iid }] = first.body as Array<{ iid: number }>;
    expect((await pipeline.processorApi<AlertView>('GET', `/projects/${project.id}/alerts/${iid}`)).events).toBe(1);

    // The signature does not cover the header: another key, or none, is a replay.
    expect((await send(project, body, { ...headers, 'Idempotency-Key': 'grafana-retry-2' })).body).toMatchObject({ error: 'replayed_signature' });
    expect((await send(project, body, headers, second)).body).toMatchObject({ error: 'replayed_signature' });
    // A signature first spent without a key cannot be replayed by adding one.
    const plain = alert('Sent without a key');
    const plainHeaders = grafanaSigned(secret, plain);
    expect((await send(project, plain, plainHeaders)).status).toBe(200);
    expect((await send(project, plain, { ...plainHeaders, 'Idempotency-Key': 'added-later' })).body).toMatchObject({ error: 'replayed_signature' });
    expect((await pipeline.processorApi<AlertView>('GET', `/projects/${project.id}/alerts/${iid}`)).events).toBe(1);
  });

  it('does not spend a signature whose request is refused after verification (not JSON): the same request is judged afresh', async () => {
    const { project, secret } = await signedProject();
    const body = `{"title": "Not JSON ${randomBytes(4).toString('hex')}"`;
    const headers = grafanaSigned(secret, body);
    expect((await send(project, body, headers)).body).toMatchObject({ error: 'invalid_json' });
    expect((await send(project, body, headers, second)).body).toMatchObject({ error: 'invalid_json' });
  });

  it('refuses a Grafana signature without a timestamp by default, and accepts it (once) with allow_signature_without_timestamp', async () => {
    const { project, secret } = await signedProject();
    const shown = await call<IntegrationAnswer>('GET', integrationPath(project));
    expect(shown.body.allow_signature_without_timestamp).toBe(false);

    const body = alert('Grafana without a timestamp');
    const headers = { 'X-Grafana-Alerting-Signature': hmac(secret, body) };
    const refused = await send(project, body, headers);
    expect(refused).toMatchObject({ status: 401, body: { error: 'missing_signature_timestamp', message: expect.stringContaining('X-Grafana-Alerting-Signature-Timestamp') } });
    await eventually(async () => expect((await deliveriesOf(project, body)).map((entry) => entry.error)).toEqual(['missing_signature_timestamp']), 15_000, 100);

    expect((await call('PUT', integrationPath(project), { allow_signature_without_timestamp: 'yes' })).status).toBe(400);
    const allowed = await call<IntegrationAnswer>('PUT', integrationPath(project), { allow_signature_without_timestamp: true });
    expect(allowed).toMatchObject({ status: 200, body: { allow_signature_without_timestamp: true, signing_secret: secret } });
    expect((await call<IntegrationAnswer>('GET', integrationPath(project))).body.allow_signature_without_timestamp).toBe(true);

    // The switch reaches the gateway within moments of the answer; each probe is a new body.
    await eventually(async () => {
      const probe = alert('Allowed without a timestamp');
      expect((await send(project, probe, { 'X-Grafana-Alerting-Signature': hmac(secret, probe) })).status).toBe(200);
    }, 10_000, 100);
    expect((await send(project, body, headers)).status).toBe(200);
    expect((await send(project, body, headers)).body).toMatchObject({ error: 'replayed_signature' });

    // Off again: refused again.
    expect((await call<IntegrationAnswer>('PUT', integrationPath(project), { allow_signature_without_timestamp: false })).body.allow_signature_without_timestamp).toBe(false);
    await eventually(async () => {
      const probe = alert('Refused without a timestamp again');
      expect((await send(project, probe, { 'X-Grafana-Alerting-Signature': hmac(secret, probe) })).body).toMatchObject({ error: 'missing_signature_timestamp' });
    }, 10_000, 100);
  });
});
