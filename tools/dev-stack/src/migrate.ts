// One-shot preparation of configured infrastructure (the Docker `migrate` job, or any deployment):
// applies the SQL migrations and creates the Kafka topics, then exits. Services also apply
// migrations at start-up; running this first keeps their start-up fast and their rights narrow.
import { BaseEnv, loadConfig } from '@alert-ingestion/config';
import { applyMigrations } from '@alert-ingestion/database';
import { createKafkaConfig, ensureTopics } from '@alert-ingestion/kafka';
import { Kafka } from 'kafkajs';

async function main(): Promise<void> {
  const env = loadConfig(BaseEnv);
  const migrations = await applyMigrations({ databaseUrl: env.DATABASE_URL, log: console.log });
  console.log(`migrations: ${migrations.applied.length} applied, ${migrations.alreadyApplied.length} already applied`);
  const kafka = new Kafka(createKafkaConfig({ ...env, KAFKA_CLIENT_ID: `${env.KAFKA_CLIENT_ID}-migrate` }));
  const topics = await ensureTopics(kafka, env.KAFKA_TOPIC_PREFIX);
  console.log(`topics: ${topics.created.length} created, ${topics.expanded.length} expanded`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
