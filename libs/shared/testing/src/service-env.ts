import { requireTestEnv, TEST_ENV } from './test-environment';

/** What every service needs from its test: its own database and topic prefix. */
export interface ServiceEnvOverrides {
  DATABASE_URL: string;
  KAFKA_TOPIC_PREFIX: string;
  [variable: string]: string | undefined;
}

/**
 * A complete environment for a service under test (for loadConfig or startService): the test
 * cluster, ephemeral ports, quiet logs, plus the overrides. Undefined overrides remove a variable.
 *   const env = serviceEnv({ DATABASE_URL: db.url, KAFKA_TOPIC_PREFIX: topics.prefix });
 */
export function serviceEnv(overrides: ServiceEnvOverrides): Record<string, string> {
  const merged: Record<string, string | undefined> = {
    KAFKA_BROKERS: requireTestEnv(TEST_ENV.kafkaBrokers),
    KAFKA_CLIENT_ID: `test-${process.env[TEST_ENV.runId] ?? 'run'}`,
    PORT: '0',
    // The gateway's reply listener: an ephemeral port too, so several gateways share the machine.
    GATEWAY_REPLY_PORT: '0',
    LOG_LEVEL: process.env['TEST_LOG_LEVEL'] ?? 'warn',
    NODE_ENV: 'test',
    ADMIN_TOKEN: 'test-admin-token',
    ...overrides,
  };
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(merged)) {
    if (value !== undefined) env[name] = value;
  }
  return env;
}
