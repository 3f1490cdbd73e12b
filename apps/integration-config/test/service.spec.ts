import { loadConfig } from '@alert-ingestion/config';
import { serviceEnv } from '@alert-ingestion/testing';
import { randomBytes } from 'node:crypto';
import { createIntegrationConfigApp } from '../src/integration-config.app';
import { IntegrationConfigEnv } from '../src/integration-config.env';
import { ADMIN_TOKEN, ManagementApi } from './support/management-api';

describe('integration-config service', () => {
  let api: ManagementApi;
  let output: string[];
  const writes: Array<jest.SpyInstance> = [];

  beforeAll(async () => {
    output = [];
    for (const stream of [process.stdout, process.stderr]) {
      const original = stream.write.bind(stream);
      writes.push(
        jest.spyOn(stream, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: never[]) => {
          output.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString());
          return original(chunk, ...rest);
        }) as typeof stream.write),
      );
    }
    // Verbose logs, and a gateway that does not answer, so that test alerts log their failure too.
    api = await ManagementApi.start({ LOG_LEVEL: 'verbose', GATEWAY_PUBLIC_URL: 'http://127.0.0.1:9' });
  });

  afterAll(async () => {
    await api.stop();
    for (const write of writes) write.mockRestore();
  });

  it('answers /healthz with 200 when PostgreSQL and Kafka answer', async () => {
    const response = await fetch(`${api.url}/healthz`);
    expect(response.status).toBe(200);
  });

  it('serves the receiver feature history to anyone (spec 9.1)', async () => {
    const answer = await api.request<unknown[]>('GET', '/alert_integrations/feature_history');
    expect(answer.status).toBe(200);
    expect(JSON.stringify(answer.body)).toContain('13.10');
  });

  it('never writes an authorization key or a token to the logs', async () => {
    const user = await api.createUser('log-watcher');
    const project = await api.createProject('logs/p', 'premium');
    await api.addMember(project, user.id, 'maintainer');
    const created = await api.request<{ id: number; authorization_key: string }>('POST', `/projects/${project}/alert_integrations`, {
      token: user.token,
      body: { name: 'Logged?', active: true },
    });
    const reset = await api.request<{ authorization_key: string }>('POST', `/projects/${project}/alert_integrations/${created.body.id}/reset_authorization_key`, {
      token: user.token,
    });
    await api.request('GET', `/projects/${project}/alert_integrations/${created.body.id}`, { token: user.token });
    const testAlert = await api.request('POST', `/projects/${project}/alert_integrations/${created.body.id}/test_alert`, {
      token: user.token,
      body: { payload: '{"title":"t"}' },
    });
    expect(testAlert.status).toBe(503);
    expect(testAlert.body).toEqual({ error: 'gateway_unavailable', message: expect.stringContaining('did not answer') });
    await api.request('GET', '/users', { token: 'aipat-wrong-token' });

    const logs = output.join('');
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of [created.body.authorization_key, reset.body.authorization_key, user.token, ADMIN_TOKEN, 'aipat-wrong-token']) {
      expect(logs).not.toContain(secret);
    }
  });

  it('takes a sample payload of nearly 1 MiB even when escaping makes the request body larger', async () => {
    const project = await api.createProject('limits/p', 'premium');
    const sample = JSON.stringify({ text: '"'.repeat(300_000), more: 'x'.repeat(300_000) });
    expect(Buffer.byteLength(sample)).toBeLessThan(1024 * 1024);
    expect(Buffer.byteLength(JSON.stringify({ sample_payload: sample }))).toBeGreaterThan(1024 * 1024);
    const answer = await api.request('POST', `/projects/${project}/alert_integrations`, { token: ADMIN_TOKEN, body: { name: 'Big sample', sample_payload: sample } });
    expect(answer.status).toBe(201);
    const tooBig = await api.request('POST', `/projects/${project}/alert_integrations`, { token: ADMIN_TOKEN, body: 'x'.repeat(4 * 1024 * 1024) });
    expect(tooBig.status).toBe(413);
  });

  it('refuses to start in production with the local ADMIN_TOKEN or without an encryption key', async () => {
    const base = { DATABASE_URL: api.database.url, KAFKA_TOPIC_PREFIX: api.topics.prefix, NODE_ENV: 'production' };
    const withDefaultAdmin = loadConfig(IntegrationConfigEnv, serviceEnv({ ...base, ADMIN_TOKEN: undefined, INTEGRATION_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64') }));
    await expect(createIntegrationConfigApp(withDefaultAdmin)).rejects.toThrow(/ADMIN_TOKEN must be set/);
    const withoutKey = loadConfig(IntegrationConfigEnv, serviceEnv({ ...base, ADMIN_TOKEN }));
    await expect(createIntegrationConfigApp(withoutKey)).rejects.toThrow(/INTEGRATION_KEY_ENCRYPTION_KEY is required/);
    const badKey = loadConfig(IntegrationConfigEnv, serviceEnv({ ...base, ADMIN_TOKEN, INTEGRATION_KEY_ENCRYPTION_KEY: 'c2hvcnQ=' }));
    await expect(createIntegrationConfigApp(badKey)).rejects.toThrow(/exactly 32 bytes/);
  });
});
