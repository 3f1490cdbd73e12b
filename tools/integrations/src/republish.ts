// `npm run integrations:republish`: writes the current state of every integration to
// integration-config's snapshot outbox, which its relay then publishes to the compacted
// integrations.v1 topic. Changes reach the topic by themselves (each is written to the outbox in its
// own transaction); this is for recovery when the topic lost records: a new Kafka cluster, a deleted
// or truncated topic. Needs DATABASE_URL; a running integration-config publishes what it writes.
import { BaseEnv, loadConfig } from '@alert-ingestion/config';
import { writeIntegrationSnapshots } from '@alert-ingestion/integrations-data';
import { Client } from 'pg';

async function main(): Promise<void> {
  const env = loadConfig(BaseEnv);
  const client = new Client({ connectionString: env.DATABASE_URL, application_name: 'integrations-republish' });
  await client.connect();
  try {
    await client.query('BEGIN');
    const counted = await client.query<{ count: string }>('SELECT count(*)::text AS count FROM alert_integrations');
    await writeIntegrationSnapshots(async (text, values) => (await client.query(text, [...values])).rows, 'all');
    await client.query('COMMIT');
    console.log(`${counted.rows[0].count} integration snapshots written to the outbox; integration-config publishes them to integrations.v1`);
  } finally {
    await client.end();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
