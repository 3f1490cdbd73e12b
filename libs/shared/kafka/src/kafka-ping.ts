import { Admin, Kafka } from 'kafkajs';
import { AsyncLocalStorage } from 'node:async_hooks';

export interface KafkaPingResult {
  brokers: number;
  controller: number | null;
}

/**
 * Asks the cluster for its brokers through one long-lived admin connection, bounded by a timeout.
 * A failure drops the connection so the next ping starts clean. Used by KafkaHealthProbe.
 */
export class KafkaPing {
  private admin: Admin | undefined;
  private connecting: Promise<Admin> | undefined;
  private pending: Admin | undefined;
  /**
   * Runs a function outside any request: the connection outlives the health check that opens it,
   * so its lines (reconnects, its close at shutdown) must not carry that request's id.
   */
  private readonly outsideRequests = AsyncLocalStorage.snapshot();

  constructor(private readonly kafka: Kafka) {}

  async ping(timeoutMs = 3_000): Promise<KafkaPingResult> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Kafka did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      const admin = await Promise.race([this.connected(), timeout]);
      const cluster = await Promise.race([admin.describeCluster(), timeout]);
      return { brokers: cluster.brokers.length, controller: cluster.controller };
    } catch (error) {
      await this.close();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    const admins = [this.admin, this.pending].filter((admin): admin is Admin => admin !== undefined);
    this.admin = undefined;
    this.pending = undefined;
    this.connecting = undefined;
    await Promise.all(admins.map((admin) => admin.disconnect().catch(() => undefined)));
  }

  private connected(): Promise<Admin> {
    if (this.admin) return Promise.resolve(this.admin);
    if (!this.connecting) {
      // No retries: a ping answers now or fails now. A retrying connect would outlive the ping's
      // timeout and keep reconnecting in the background, even after the app has closed.
      const admin = this.kafka.admin({ retry: { retries: 0 } });
      this.pending = admin;
      this.connecting = this.outsideRequests(() => admin.connect()).then(
        () => {
          if (this.pending !== admin) {
            // close() ran while this connect was under way.
            void admin.disconnect().catch(() => undefined);
            throw new Error('Kafka health ping was closed');
          }
          this.pending = undefined;
          this.admin = admin;
          return admin;
        },
        (error: unknown) => {
          if (this.pending === admin) this.pending = undefined;
          this.connecting = undefined;
          throw error;
        },
      );
    }
    return this.connecting;
  }
}
