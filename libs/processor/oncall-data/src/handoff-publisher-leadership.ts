import { Client } from 'pg';
import { HANDOFF_PUBLISHER_LOCK } from './oncall-handoffs.repository';

/**
 * The handoff publisher's leadership: a PostgreSQL session advisory lock held on a connection of its
 * own, so one processor at a time looks for changes of who is on call, and another takes over once
 * the leader's session ends (it stopped, died or lost its connection). Correctness does not rest on
 * it: every publication locks its schedule and moves its progress in the same commit.
 */
export class HandoffPublisherLeadership {
  private client: Client | undefined;
  private held = false;

  constructor(private readonly databaseUrl: string) {}

  /** Whether this instance leads now: takes the lock if it is free, and checks a lock it holds is still its session's. */
  async lead(): Promise<boolean> {
    try {
      const client = await this.session();
      if (this.held) {
        await client.query('SELECT 1');
        return true;
      }
      const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [HANDOFF_PUBLISHER_LOCK]);
      this.held = rows[0].locked;
      return this.held;
    } catch {
      await this.release();
      return false;
    }
  }

  /** Ends the session (and with it the lock). */
  async release(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.held = false;
    await client?.end().catch(() => undefined);
  }

  private async session(): Promise<Client> {
    if (this.client) return this.client;
    const client = new Client({ connectionString: this.databaseUrl, application_name: 'alert-processor-oncall-publisher' });
    // A lost connection loses the lock with it: the next round starts a new session.
    client.on('error', () => {
      if (this.client === client) {
        this.client = undefined;
        this.held = false;
      }
    });
    await client.connect();
    this.client = client;
    return client;
  }
}
