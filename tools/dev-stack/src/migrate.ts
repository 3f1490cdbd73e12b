// One-shot preparation of configured infrastructure (the Docker `migrate` job, or any deployment):
// applies the SQL migrations and creates the Kafka topics, then exits. Services also apply
// migrations at start-up; running this first keeps their start-up fast and their rights narrow.
// It logs like the services (LOG_FORMAT, LOG_LEVEL), so its lines reach the same collectors.
import { BaseEnv, loadConfig } from '@alert-ingestion/config';
import { applyMigrations } from '@alert-ingestion/database';
import { useServiceLogging } from '@alert-ingestion/http';
import { createKafkaConfig, ensureTopics } from '@alert-ingestion/kafka';
import { Logger } from '@nestjs/common';
import { Kafka } from 'kafkajs';

const logger = new Logger('migrate');

async function main(): Promise<void> {
  const env = loadConfig(BaseEnv);
  useServiceLogging('migrate', env);
  const migrations = await applyMigrations({ databaseUrl: env.DATABASE_URL, log: (message) => logger.log(message) });
  logger.log(`migrations: ${migrations.applied.length} applied, ${migrations.alreadyApplied.length} already applied`);
  const kafka = new Kafka(createKafkaConfig({ ...env, KAFKA_CLIENT_ID: `${env.KAFKA_CLIENT_ID}-migrate` }, { logSink: new Logger('Kafka') }));
  const topics = await ensureTopics(kafka, env.KAFKA_TOPIC_PREFIX);
  logger.log(`topics: ${topics.created.length} created, ${topics.expanded.length} expanded, ${topics.resized.length} resized`);
}

main().catch((error: unknown) => {
  logger.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
