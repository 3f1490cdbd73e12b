import { eventually } from '@alert-ingestion/testing';
import { bearer, post } from './support/http-client';
import { ADMIN_TOKEN, Pipeline, Project } from './support/pipeline';

/**
 * The receive path end to end, every service a real process: integration-config creates the
 * integration, the gateway authenticates and publishes, the processor stores and replies.
 */
describe('end to end: gateway + alert-processor + integration-config', () => {
  let pipeline: Pipeline;
  let premium: Project;

  beforeAll(async () => {
    pipeline = await Pipeline.start();
    premium = await pipeline.createProject('premium');
  }, 180_000);

  afterAll(async () => {
    await pipeline?.stop();
  }, 60_000);

  it('answers 200 [{iid, title}] once the alert is stored, and the alert is there', async () => {
    const answer = await post(premium.integration.url, JSON.stringify({ title: 'Disk full on db-1', severity: 'HIGH', hosts: 'db-1' }), {
      headers: bearer(premium.integration.authorization_key),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([{ iid: 1, title: 'Disk full on db-1' }]);
    const [alert] = await pipeline.alerts(premium.id);
    expect(alert).toMatchObject({ iid: 1, title: 'Disk full on db-1', severity: 'high', status: 'triggered', events: 1 });
  });

  it('answers one element per alert of an array body, in request order', async () => {
    const answer = await post(premium.integration.url, JSON.stringify([{ title: 'first of two' }, { title: 'second of two', severity: 'low' }]), {
      headers: bearer(premium.integration.authorization_key),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([
      { iid: 2, title: 'first of two' },
      { iid: 3, title: 'second of two' },
    ]);
  });

  it('answers with the alert an identical payload was grouped into', async () => {
    const answer = await post(premium.integration.url, JSON.stringify({ title: 'Disk full on db-1', severity: 'HIGH', hosts: 'db-2' }), {
      headers: bearer(premium.integration.authorization_key),
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([{ iid: 1, title: 'Disk full on db-1' }]);
    const alert = (await pipeline.alerts(premium.id)).find((stored) => stored.iid === 1);
    expect(alert?.events).toBe(2);
  });

  it('accepts the key as Basic credentials written in the URL', async () => {
    const url = new URL(premium.integration.url);
    url.password = premium.integration.authorization_key;
    const answer = await post(url.toString(), JSON.stringify({ title: 'sent with URL credentials' }));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([{ iid: expect.any(Number), title: 'sent with URL credentials' }]);
  });

  it('refuses the old key once it is reset (401) and accepts the new one', async () => {
    const oldKey = premium.integration.authorization_key;
    const reset = await fetch(`${pipeline.integrationConfig.url}/api/v4/projects/${premium.id}/alert_integrations/${premium.integration.id}/reset_authorization_key`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(reset.status).toBe(200);
    const { authorization_key: newKey } = (await reset.json()) as { authorization_key: string };
    await eventually(async () => {
      expect((await post(premium.integration.url, JSON.stringify({ title: 'old key' }), { headers: bearer(oldKey) })).status).toBe(401);
    }, 2_000, 50);
    const answer = await post(premium.integration.url, JSON.stringify({ title: 'new key' }), { headers: bearer(newKey) });
    expect(answer.status).toBe(200);
    premium.integration.authorization_key = newKey;
  });

  it('says in Server-Timing where the time of an answered request went, hop by hop', async () => {
    const answer = await post(premium.integration.url, JSON.stringify({ title: 'timed hop by hop' }), { headers: bearer(premium.integration.authorization_key) });
    expect(answer.status).toBe(200);
    const timing = String(answer.headers['server-timing']);
    const entries = timing.split(', ').map((entry) => /^([a-z]+);dur=(\d+\.\d{2})$/.exec(entry));
    expect(entries.map((entry) => entry?.[1])).toEqual(['receive', 'publish', 'deliver', 'store', 'total']);
    const ms = Object.fromEntries(entries.map((entry) => [entry![1], Number(entry![2])]));
    // The processor's transaction takes time of its own, and the hops add up to no more than the whole.
    expect(ms['store']).toBeGreaterThan(0);
    expect(ms['receive'] + ms['publish'] + ms['deliver'] + ms['store']).toBeLessThanOrEqual(ms['total'] + 0.05);
  });
});
