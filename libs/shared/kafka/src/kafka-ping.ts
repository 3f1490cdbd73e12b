import { withinTime } from '@alert-ingestion/async';
import { Admin, Kafka, logLevel } from 'kafkajs';
import { AsyncLocalStorage } from 'node:async_hooks';
import { parseBrokers } from './kafka-config';
import { setTimeout as sleep } from 'node:timers/promises';

export interface KafkaPingResult {
  brokers: number;
  controller: number | null;
}

/**
 * Asks the cluster for its brokers through one long-lived admin connection, bounded by a timeout.
 * A failure drops the connection so the next ping starts clean. Used by KafkaHealthProbe and
 * waitForKafka.
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
    const cluster = await this.describeCluster(timeoutMs);
    return { brokers: cluster.brokers.length, controller: cluster.controller };
  }

  /** The cluster's answer to describeCluster, within `timeoutMs`. */
  async describeCluster(timeoutMs: number): ReturnType<Admin['describeCluster']> {
    try {
      return await withinTime(
        this.connected().then((admin) => admin.describeCluster()),
        timeoutMs,
        () => {
          throw new Error(`Kafka did not answer within ${timeoutMs} ms`);
        },
      );
    } catch (error) {
      await this.close();
      throw error;
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

export interface WaitForKafkaOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Checked between attempts; returning a reason stops waiting (e.g. the broker process exited). */
  giveUp?: () => string | undefined;
  /** The id of the cluster expected to answer: another cluster on that address fails the wait at once. */
  clusterId?: string;
  /** Waits until the cluster counts at least this many brokers (the nodes of a cluster join one by one). */
  brokerCount?: number;
}

/**
 * Waits until the cluster answers a metadata request (describeCluster): the broker accepts
 * clients, which its log lines do not prove. Uses its own silent client so that the expected
 * connection refusals while a broker starts are not logged as errors.
 */
export async function waitForKafka(brokers: string, options: WaitForKafkaOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const ping = new KafkaPing(
    new Kafka({ clientId: 'readiness-probe', brokers: parseBrokers(brokers), logLevel: logLevel.NOTHING, connectionTimeout: 1_000, requestTimeout: 5_000, retry: { retries: 0 } }),
  );
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no attempt yet';
  try {
    for (;;) {
      const reason = options.giveUp?.();
      if (reason !== undefined) throw new Error(`Gave up waiting for Kafka at ${brokers}: ${reason}`);
      const answer = await ping.describeCluster(5_000).catch((error: unknown) => void (lastError = error instanceof Error ? error.message : String(error)));
      if (answer) {
        if (options.clusterId !== undefined && answer.clusterId !== options.clusterId) {
          throw new Error(`${brokers} is served by another Kafka cluster (${answer.clusterId}, ours is ${options.clusterId}): is the port taken?`);
        }
        if (answer.brokers.length >= (options.brokerCount ?? 1)) return;
        lastError = `${answer.brokers.length} of ${options.brokerCount} brokers registered`;
      }
      if (Date.now() >= deadline) throw new Error(`Kafka at ${brokers} did not answer within ${timeoutMs} ms (last error: ${lastError})`);
      await sleep(options.intervalMs ?? 200);
    }
  } finally {
    await ping.close();
  }
}
