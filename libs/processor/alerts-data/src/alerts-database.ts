import { SqlQuery, sqlState } from '@alert-ingestion/sql';
import { Pool, PoolClient, PoolConfig, QueryResult, QueryResultRow } from 'pg';

/** SQLSTATEs after which the whole transaction can simply run again. */
const RETRYABLE_SQLSTATES = new Set([
  '40001', // serialization_failure
  '40P01', // deadlock_detected
]);

export interface AlertsDatabaseOptions {
  /** Connections in the pool: one per concurrently processed partition plus the API and the relay. */
  maxConnections?: number;
  /** How often a transaction that hit a deadlock or serialization failure is run again. */
  transactionAttempts?: number;
  /** The sessions' application_name (pg_stat_activity): `alert-processor` unless given. */
  applicationName?: string;
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
      application_name: options.applicationName ?? 'alert-processor',
    };
    this.pool = new Pool(config);
    // An idle client losing its connection must not crash the process; the pool replaces it.
    this.pool.on('error', () => undefined);
    this.transactionAttempts = options.transactionAttempts ?? 5;
  }

  /** One statement on a connection of the pool, outside any transaction (VACUUM needs that). */
  readonly query: SqlQuery = async <Row>(text: string, values: readonly unknown[]) => (await this.pool.query(text, [...values])).rows as Row[];

  /**
   * Runs `work` in one transaction (READ COMMITTED). Deadlocks and serialization failures, which
   * concurrent batches of several processor instances can cause, roll back and run `work` again.
   */
  transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.scriptedTransaction(async (transaction) => {
      await transaction.step([]);
      const result = await work(transaction.client);
      await transaction.commit([]);
      return result;
    });
  }

  /**
   * Runs `work` on a transaction of its own, sent in steps (see ScriptedTransaction), which `work`
   * commits; otherwise it is rolled back. After a deadlock or serialization failure, or a failure the
   * caller knows running again cures (`cured`, such as a race lost to another transaction), it is
   * rolled back and `work` runs again, up to the configured attempts.
   */
  async scriptedTransaction<T>(work: (transaction: ScriptedTransaction) => Promise<T>, cured: (error: unknown) => boolean = () => false): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const transaction = new ScriptedTransaction(await this.pool.connect());
      try {
        return await work(transaction);
      } catch (error) {
        const retryable = cured(error) || RETRYABLE_SQLSTATES.has(sqlState(error) ?? '');
        if (attempt >= this.transactionAttempts || !retryable) throw error;
      } finally {
        await transaction.rollback();
      }
    }
  }

  /**
   * One page of rows, `SELECT columns FROM source page`, and how many rows `source` (tables and
   * conditions, on `parameters`) holds in all: two queries sent at once.
   */
  async page<R extends QueryResultRow>(columns: string, source: string, page: string, parameters: unknown[]): Promise<{ rows: R[]; total: number }> {
    const [rows, counted] = await Promise.all([
      this.pool.query<R>(`SELECT ${columns} FROM ${source} ${page}`, parameters),
      this.pool.query<{ total: string }>(`SELECT count(*) AS total FROM ${source}`, parameters),
    ]);
    return { rows: rows.rows, total: Number(counted.rows[0].total) };
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
 * also begins the transaction; commit() runs its statements and COMMIT in one round trip (none when
 * nothing was sent); either commit() or rollback() ends it and gives the connection back. When a
 * statement fails, the ones after it in the step (COMMIT included) do not run.
 *
 * While the transaction holds its connection the pool no longer listens for the connection's errors,
 * so the transaction does: a connection ended between two steps (PostgreSQL restarted, the session
 * terminated) would otherwise raise an 'error' event nobody handles and end the process. The next
 * step fails instead, and the broken connection is not given back to the pool.
 */
export class ScriptedTransaction {
  private begun = false;
  private done = false;
  private lost = false;
  private readonly onConnectionError = (): void => {
    this.lost = true;
  };

  constructor(readonly client: PoolClient) {
    client.on('error', this.onConnectionError);
  }

  /** One parameterised statement (a read with `$1` parameters, say); the first call also begins the transaction. */
  async query<R extends QueryResultRow = QueryResultRow>(text: string, values: readonly unknown[] = []): Promise<QueryResult<R>> {
    if (this.done) throw new Error('The transaction has ended');
    if (!this.begun) await this.step([]);
    return this.client.query<R>(text, [...values]);
  }

  /** Runs the statements in order; one result per statement. */
  step<R extends QueryResultRow = QueryResultRow>(statements: readonly string[]): Promise<Array<QueryResult<R>>> {
    return this.send<R>(statements, false);
  }

  /** Runs the statements and commits, in one round trip. */
  async commit(statements: readonly string[]): Promise<QueryResult[]> {
    const results = this.begun || statements.length > 0 ? await this.send(statements, true) : [];
    this.end(false);
    return results;
  }

  /** Rolls back what was sent and not committed, and gives the connection back; a no-op once ended. */
  async rollback(): Promise<void> {
    if (this.done) return;
    let broken = false;
    try {
      if (this.begun) await this.client.query('ROLLBACK');
    } catch {
      broken = true;
    }
    this.end(broken);
  }

  private end(broken: boolean): void {
    this.done = true;
    // A lost connection keeps the listener: it is destroyed, and nothing else would hear a late error.
    if (!broken && !this.lost) this.client.removeListener('error', this.onConnectionError);
    this.client.release(broken || this.lost);
  }

  private async send<R extends QueryResultRow>(statements: readonly string[], commit: boolean): Promise<Array<QueryResult<R>>> {
    if (this.done) throw new Error('The transaction has ended');
    const lead = this.begun ? [] : ['BEGIN'];
    const script = [...lead, ...statements, ...(commit ? ['COMMIT'] : [])];
    this.begun = true;
    if (script.length === 0) return [];
    // Several statements in one simple query answer with one result each; a single one with a result.
    const answer = (await this.client.query(script.join(';\n'))) as unknown as QueryResult<R> | Array<QueryResult<R>>;
    const results = Array.isArray(answer) ? answer : [answer];
    return results.slice(lead.length, lead.length + statements.length);
  }
}
