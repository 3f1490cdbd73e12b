import { Kafka, logLevel } from 'kafkajs';
import { parseBrokers } from './kafka-config';

export interface WaitForKafkaOptions {
  timeoutMs?: number;
  intervalMs?: number;
  /** Checked between attempts; returning a reason stops waiting (e.g. the broker process exited). */
  giveUp?: () => string | undefined;
}

/**
 * Waits until the cluster answers a metadata request (admin listTopics): the broker accepts
 * clients, which its log lines do not prove. Uses its own silent client so that the expected
 * connection refusals while a broker starts are not logged as errors.
 */
export async function waitForKafka(brokers: string, options: WaitForKafkaOptions = {}): Promise<void> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const intervalMs = options.intervalMs ?? 200;
  const kafka = new Kafka({
    clientId: 'readiness-probe',
    brokers: parseBrokers(brokers),
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1_000,
    requestTimeout: 5_000,
    retry: { retries: 0 },
  });
  const deadline = Date.now() + timeoutMs;
  let lastError = 'no attempt yet';
  for (;;) {
    const reason = options.giveUp?.();
    if (reason !== undefined) throw new Error(`Gave up waiting for Kafka at ${brokers}: ${reason}`);
    const admin = kafka.admin();
    try {
      await admin.connect();
      await admin.listTopics();
      return;
    } catch (error) {
      lastError = error instanceof Error ? error.message : String(error);
    } finally {
      await admin.disconnect().catch(() => undefined);
    }
    if (Date.now() >= deadline) throw new Error(`Kafka at ${brokers} did not answer within ${timeoutMs} ms (last error: ${lastError})`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
