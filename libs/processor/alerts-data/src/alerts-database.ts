import { Pool, PoolClient, PoolConfig, QueryResult, QueryResultRow } from 'pg';

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
    return this.withRetries(async (client) => {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    });
  }

  /**
   * Like transaction(), for work whose statements go in a few steps of several statements each
   * (see ScriptedTransaction): BEGIN travels with the first step and COMMIT with the last, so a
   * transaction of two steps costs two round trips to the server. `retryAlso` names further errors
   * after which the work runs again (such as a race the work loses to another transaction and wins
   * when run again).
   */
  async scriptedTransaction<T>(work: (transaction: ScriptedTransaction) => Promise<T>, retryAlso?: (error: unknown) => boolean): Promise<T> {
    return this.withRetries(async (client) => {
      const transaction = new ScriptedTransaction(client);
      const result = await work(transaction);
      if (!transaction.committed) await transaction.commit([]);
      return result;
    }, retryAlso);
  }

  private async withRetries<T>(run: (client: PoolClient) => Promise<T>, retryAlso: (error: unknown) => boolean = () => false): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const client = await this.pool.connect();
      let broken = false;
      try {
        return await run(client);
      } catch (error) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        const retryable = RETRYABLE_SQLSTATES.has(sqlState(error) ?? '') || retryAlso(error);
        if (attempt >= this.transactionAttempts || !retryable) throw error;
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

/**
 * A transaction sent in steps, each step one simple-protocol query of several statements (values
 * inlined with sqlLiteral): one round trip per step instead of one per statement. The first step
 * also begins the transaction; commit() runs its statements and COMMIT in one round trip. When a
 * statement fails, the ones after it in the step (COMMIT included) do not run.
 */
export class ScriptedTransaction {
  private begun = false;
  private done = false;

  constructor(private readonly client: PoolClient) {}

  get committed(): boolean {
    return this.done;
  }

  /** Runs the statements in order; one result per statement. */
  step<R extends QueryResultRow = QueryResultRow>(statements: readonly string[]): Promise<Array<QueryResult<R>>> {
    return this.send<R>(statements, false);
  }

  /** Runs the statements and commits, in one round trip. */
  commit(statements: readonly string[]): Promise<QueryResult[]> {
    return this.send(statements, true);
  }

  private async send<R extends QueryResultRow>(statements: readonly string[], commit: boolean): Promise<Array<QueryResult<R>>> {
    if (this.done) throw new Error('The transaction is already committed');
    const lead = this.begun ? [] : ['BEGIN'];
    const script = [...lead, ...statements, ...(commit ? ['COMMIT'] : [])];
    this.begun = true;
    if (script.length === 0) return [];
    // Several statements in one simple query answer with one result each; a single one with a result.
    const answer = (await this.client.query(script.join(';\n'))) as unknown as QueryResult<R> | Array<QueryResult<R>>;
    if (commit) this.done = true;
    const results = Array.isArray(answer) ? answer : [answer];
    return results.slice(lead.length, lead.length + statements.length);
  }
}
