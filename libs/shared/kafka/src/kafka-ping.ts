import { Admin, Kafka } from 'kafkajs';

export interface KafkaPingResult {
  brokers: number;
  controller: number | null;
}

/**
 * Asks the cluster for its brokers through one long-lived admin connection, bounded by a timeout.
 * A failure drops the connection so the next ping starts clean. Used by the health indicator.
 */
export class KafkaPing {
  private admin: Admin | undefined;
  private connecting: Promise<Admin> | undefined;

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
    const admin = this.admin;
    this.admin = undefined;
    this.connecting = undefined;
    if (admin) await admin.disconnect().catch(() => undefined);
  }

  private connected(): Promise<Admin> {
    if (this.admin) return Promise.resolve(this.admin);
    if (!this.connecting) {
      const admin = this.kafka.admin();
      this.connecting = admin.connect().then(
        () => {
          this.admin = admin;
          return admin;
        },
        (error: unknown) => {
          this.connecting = undefined;
          throw error;
        },
      );
    }
    return this.connecting;
  }
}
