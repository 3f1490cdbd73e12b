import { IntegrationSnapshot, Topic } from '@alert-ingestion/contracts';
import { INTEGRATION_SNAPSHOT_OUTBOX } from '@alert-ingestion/integrations-data';
import { IntegrationRegistry } from '@alert-ingestion/integrations-registry';
import { eventually, testKafka, TopicCollector } from '@alert-ingestion/testing';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { startTopicReader } from './support/integrations-topic';
import { ADMIN_TOKEN, ManagementApi } from './support/management-api';

/**
 * Integration changes reach integrations.v1 through a transactional outbox: a change and its
 * snapshot commit together, so a crash between the commit and the publish loses nothing.
 */
describe('the integration snapshot outbox', () => {
  let api: ManagementApi;
  let topic: IntegrationRegistry | undefined;

  afterAll(async () => {
    await topic?.stop();
    await api.stop();
  });

  it('publishes changes committed by an instance that ended before it could publish them', async () => {
    const first = await ManagementApi.start();
    const project = await first.createProject('outbox/p', 'premium');
    const create = async (target: ManagementApi, name: string) =>
      (await target.request<{ id: number }>('POST', `/projects/${project}/alert_integrations`, { token: ADMIN_TOKEN, body: { name, active: true } })).body.id;
    const changed = await create(first, 'Changed while unpublished');
    const deleted = await create(first, 'Deleted while unpublished');
    const untouched = await create(first, 'Untouched');
    await first.stop(true);

    // Another session holds the relay's leadership: the next instance commits changes it cannot publish.
    const holder = new Client({ connectionString: first.database.url });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1)', [INTEGRATION_SNAPSHOT_OUTBOX.leaderLock]);
    const sameKey = { INTEGRATION_KEY_ENCRYPTION_KEY: first.env.INTEGRATION_KEY_ENCRYPTION_KEY };
    const second = await ManagementApi.start({ ...sameKey, SNAPSHOT_PUBLISH_TIMEOUT_MS: '200' }, { database: first.database, topics: first.topics });
    const renamed = await second.request('PUT', `/projects/${project}/alert_integrations/${changed}`, { token: ADMIN_TOKEN, body: { name: 'Renamed', active: false } });
    expect(renamed.status).toBe(200);
    expect((await second.request('DELETE', `/projects/${project}/alert_integrations/${deleted}`, { token: ADMIN_TOKEN })).status).toBe(204);
    const added = await create(second, 'Created while unpublished');
    // Stored, answered, and waiting in the outbox; the instance then ends without publishing them.
    expect(await second.sql(`SELECT key FROM ${INTEGRATION_SNAPSHOT_OUTBOX.name} ORDER BY id`)).toEqual([{ key: String(changed) }, { key: String(deleted) }, { key: String(added) }]);
    await second.stop(true);
    topic = await startTopicReader(first.topics.prefix);
    expect(topic.findById(String(changed))).toMatchObject({ name: 'Changed while unpublished', active: true, version: 1 });
    expect(topic.findById(String(deleted))).toBeDefined();
    expect(topic.findById(String(added))).toBeUndefined();
    await holder.end();

    api = await ManagementApi.start(sameKey, { database: first.database, topics: first.topics });

    await eventually(() => {
      expect(topic!.findById(String(changed))).toMatchObject({ name: 'Renamed', active: false, version: 2 });
      expect(topic!.findById(String(deleted))).toBeUndefined();
      expect(topic!.findById(String(added))).toMatchObject({ name: 'Created while unpublished', active: true });
      expect(topic!.findById(String(untouched))).toMatchObject({ name: 'Untouched', version: 1 });
    }, 10_000);
    await eventually(async () => expect(await api.sql(`SELECT key FROM ${INTEGRATION_SNAPSHOT_OUTBOX.name}`)).toEqual([]));
  });

  it('publishes every integration again on `npm run integrations:republish` (recovery of a lost topic)', async () => {
    const records = await TopicCollector.published<IntegrationSnapshot.IntegrationSnapshotValue | null>(testKafka(), api.topics.prefix, Topic.Integrations);
    const current = (await api.sql<{ id: string }>('SELECT id::text AS id FROM alert_integrations ORDER BY id')).map((row) => row.id);
    await records.waitFor(() => true, 1);
    const before = records.received.length;

    const run = spawnSync(process.execPath, [join(__dirname, '../../../dist/tools/integrations/src/republish.js')], {
      env: { ...process.env, DATABASE_URL: api.database.url, KAFKA_TOPIC_PREFIX: api.topics.prefix },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`${current.length} integration snapshots written to the outbox; integration-config publishes them to integrations.v1\n`);
    expect(run.status).toBe(0);

    await eventually(() => expect(records.received.length).toBeGreaterThanOrEqual(before + current.length), 15_000);
    const again = records.received.slice(before);
    expect(again.map((record) => record.key).sort()).toEqual([...current].sort());
    expect(again.every((record) => record.value !== null && current.includes(record.value.id))).toBe(true);
    await records.stop();
  });
});
