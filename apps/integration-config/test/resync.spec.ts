import { IntegrationRegistry } from '@alert-ingestion/integrations-registry';
import { eventually } from '@alert-ingestion/testing';
import { startTopicReader } from './support/integrations-topic';
import { ADMIN_TOKEN, ManagementApi } from './support/management-api';

/**
 * A crash between a database commit and its publish leaves the topic behind. At start-up
 * integration-config compares every integration with the topic, republishes what differs and
 * tombstones what the database no longer has.
 */
describe('start-up resynchronisation of the integrations topic', () => {
  let first: ManagementApi;
  let second: ManagementApi | undefined;
  let topic: IntegrationRegistry | undefined;

  beforeAll(async () => {
    first = await ManagementApi.start();
  });

  afterAll(async () => {
    await topic?.stop();
    if (second) await second.stop();
    else await first.stop();
  });

  it('republishes changes and deletions the topic missed', async () => {
    const project = await first.createProject('resync/p', 'premium');
    const create = async (name: string) =>
      (await first.request<{ id: number }>('POST', `/projects/${project}/alert_integrations`, { token: ADMIN_TOKEN, body: { name, active: true } })).body.id;
    const changed = await create('Changed while down');
    const deleted = await create('Deleted while down');
    const untouched = await create('Untouched');
    await first.stop(true);

    // What a crash right after the commit would leave: the database moved on, the topic did not.
    await first.sql(`UPDATE alert_integrations SET name = 'Renamed', active = false, version = version + 1 WHERE id = $1`, [changed]);
    await first.sql('DELETE FROM alert_integrations WHERE id = $1', [deleted]);

    topic = await startTopicReader(first.topics.prefix);
    expect(topic.findById(String(changed))).toMatchObject({ name: 'Changed while down', active: true, version: 1 });
    expect(topic.findById(String(deleted))).toBeDefined();

    second = await ManagementApi.start({}, { database: first.database, topics: first.topics });

    await eventually(() => {
      expect(topic!.findById(String(changed))).toMatchObject({ name: 'Renamed', active: false, version: 2 });
      expect(topic!.findById(String(deleted))).toBeUndefined();
      expect(topic!.findById(String(untouched))).toMatchObject({ name: 'Untouched', version: 1 });
    }, 5_000);
  });
});
