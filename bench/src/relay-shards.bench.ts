/**
 * `npm run bench:relay`: how fast the alert event outbox is published by one relay and by the
 * sharded relay, both in this one process, against KAFKA_BROKERS (required) and the PostgreSQL of
 * DATABASE_URL (or an embedded one). Each round fills the outbox with EVENTS alert events over
 * ALERTS alerts (written as the processor writes them), starts the relay and times it until the
 * last event is published; prints events/s per configuration on stdout. The outbox is filled in one
 * transaction (outbox-fill.ts), as `npm run bench:scale` fills it for the processors' relays.
 */
import { ALERT_EVENT_OUTBOX } from '@alert-ingestion/alerts-data';
import { Topic } from '@alert-ingestion/contracts';
import { applyMigrations } from '@alert-ingestion/database';
import { createKafkaConfig, ensureTopics, KafkaNames, TransactionalTopicProducer } from '@alert-ingestion/kafka';
import { findRepoRoot } from '@alert-ingestion/local-infra';
import { OutboxRelay, OutboxRelayOptions, OutboxShard, shardName, ShardedOutboxRelay } from '@alert-ingestion/outbox';
import { deleteTopicsWithPrefix } from '@alert-ingestion/testing';
import { Kafka, logLevel } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Pool } from 'pg';
import { benchDatabase, Cleanup, log } from './bench-database';
import { fillAlertEventOutbox } from './outbox-fill';

const EVENTS = Number(process.env['RELAY_BENCH_EVENTS'] ?? 40_000);
const ALERTS = Number(process.env['RELAY_BENCH_ALERTS'] ?? 4_000);
const SHARDS = Number(process.env['RELAY_BENCH_SHARDS'] ?? 8);
const quiet = { log: () => undefined, warn: (line: string) => log(line), error: (line: string) => log(line) };

async function main(): Promise<void> {
  const brokers = process.env['KAFKA_BROKERS'];
  if (!brokers) throw new Error('KAFKA_BROKERS must name a running broker');
  const cleanups: Cleanup[] = [];
  try {
    const runId = randomBytes(4).toString('hex');
    const { databaseUrl } = await benchDatabase(`alert_ingestion_relay_bench_${runId}`, cleanups, log);
    await applyMigrations({ databaseUrl, migrationsDir: join(findRepoRoot(__dirname), 'prisma', 'migrations') });
    const pool = new Pool({ connectionString: databaseUrl, max: 2 });
    // An idle client's error (the database dropped at the end) is not the benchmark's.
    pool.on('error', (error) => log(`database: ${error.message}`));
    cleanups.push(() => pool.end());
    const prefix = `bench.${runId}.`;
    const kafka = new Kafka(createKafkaConfig({ KAFKA_BROKERS: brokers, KAFKA_CLIENT_ID: 'relay-bench' }, { overrides: { logLevel: logLevel.NOTHING } }));
    await ensureTopics(kafka, prefix);
    cleanups.push(async () => void (await deleteTopicsWithPrefix(kafka, prefix)));
    const names = new KafkaNames(prefix);

    const relayFor = (id: string, shard?: OutboxShard) => {
      const options: OutboxRelayOptions = {
        name: `bench ${id}`,
        databaseUrl,
        table: ALERT_EVENT_OUTBOX,
        deadLetterTopic: Topic.AlertEventsDeadLetter,
        batchSize: 1_000,
        lingerMs: 100,
        pollIntervalMs: 500,
        initialRetryMs: 200,
        maxRetryMs: 5_000,
        maxAttempts: 3,
        stallAfterMs: 600_000,
        logger: quiet,
        ...(shard ? { shard } : {}),
      };
      return new OutboxRelay(new TransactionalTopicProducer(kafka, names, { topic: Topic.AlertEvents, transactionalId: `${prefix}${id}`, positionGroupId: `${prefix}${id}` }), options);
    };
    const configurations: Array<{ label: string; start: () => { published: () => number; stop: () => Promise<void> } }> = [
      {
        label: 'one relay',
        start: () => {
          const relay = relayFor('single');
          relay.start();
          return { published: () => relay.status().published, stop: () => relay.stop() };
        },
      },
      {
        label: `${SHARDS} shards, one process`,
        start: () => {
          const relay = new ShardedOutboxRelay((shard) => relayFor(shardName(shard), shard), {
            databaseUrl,
            table: ALERT_EVENT_OUTBOX,
            shardCount: SHARDS,
            rebalanceIntervalMs: 1_000,
            name: 'bench',
            logger: quiet,
          });
          relay.start();
          return { published: () => relay.status().published, stop: () => relay.stop() };
        },
      },
    ];
    const lines: string[] = [];
    for (const configuration of configurations) {
      await fillAlertEventOutbox(pool, { events: EVENTS, alerts: ALERTS, projectId: 1 });
      log(`${configuration.label}: ${EVENTS} events over ${ALERTS} alerts written, publishing`);
      const started = Date.now();
      const running = configuration.start();
      while (running.published() < EVENTS) await delay(5);
      const seconds = (Date.now() - started) / 1000;
      await running.stop();
      const left = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM alert_event_outbox')).rows[0].n;
      lines.push(`${configuration.label.padEnd(24)} ${String(EVENTS).padStart(7)} events in ${seconds.toFixed(2)} s: ${Math.round(EVENTS / seconds)} events/s (${left} rows left)`);
      await pool.query('TRUNCATE alert_event_outbox');
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => log(`cleanup: ${String(error)}`));
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
