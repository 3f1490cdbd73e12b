import { Pool, PoolClient, PoolConfig } from 'pg';

/** SQLSTATEs after which the whole transaction can simply run again. */
const RETRYABLE_SQLSTATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);

export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

export interface AlertsDatabaseOptions {
  /** Connections in the pool: one per concurrently processed partition plus the API and the relay. */
  maxConnections?: number;
  /** How often a transaction that hit a deadlock or serialization failure is run again. */
  transactionAttempts?: number;
}

/**
 * The processor's PostgreSQL access for set-based batch SQL (node-postgres directly: one round trip
 * per statement, arrays and JSON documents as parameters). bigint columns arrive as decimal strings.
 */
export class AlertsDatabase {
  readonly pool: Pool;
  private readonly transactionAttempts: number;

  constructor(databaseUrl: string, options: AlertsDatabaseOptions = {}) {
    const config: PoolConfig = {
      connectionString: databaseUrl,
      max: options.maxConnections ?? 10,
      application_name: 'alert-processor',
    };
    this.pool = new Pool(config);
    // An idle client losing its connection must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
    this.transactionAttempts = options.transactionAttempts ?? 5;
  }

  /**
   * Runs `work` in one transaction (READ COMMITTED). Deadlocks and serialization failures, which
   * concurrent batches of several processor instances can cause, roll back and run `work` again.
   */
  async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect();
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await work(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        if (attempt >= this.transactionAttempts || !RETRYABLE_SQLSTATES.has(sqlState(error) ?? '')) throw error;
      } finally {
        client.release(broken);
      }
    }
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
