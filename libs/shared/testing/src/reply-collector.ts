import { ReplyListener } from '@alert-ingestion/alert-replies';
import { AlertReply } from '@alert-ingestion/contracts';
import { waitForMatching } from './topic-collector';

/**
 * Stands in for a gateway instance's reply listener in the processor's tests: a real ReplyListener
 * on an ephemeral port of 127.0.0.1 that keeps every reply posted to it, in arrival order (each
 * counted delivered). `endpoint` is what raw alerts name as their reply_endpoint.
 */
export class ReplyCollector {
  readonly received: Array<{ value: AlertReply.AlertReplyValue }> = [];
  private readonly listener = new ReplyListener({
    host: '127.0.0.1',
    port: 0,
    maxBodyBytes: 64 * 1024 * 1024,
    logger: { warn: () => undefined },
    deliver: (replies) => {
      for (const value of replies) this.received.push({ value });
      return { delivered: replies.length, late: 0 };
    },
  });

  static async start(): Promise<ReplyCollector> {
    const collector = new ReplyCollector();
    await collector.listener.start();
    return collector;
  }

  get endpoint(): AlertReply.ReplyEndpointValue {
    return this.listener.endpoint;
  }

  /** Waits until `count` received replies match, and returns them. */
  waitFor(match: (message: { value: AlertReply.AlertReplyValue }) => boolean, count = 1, timeoutMs = 20_000): Promise<Array<{ value: AlertReply.AlertReplyValue }>> {
    return waitForMatching(this.received, match, count, timeoutMs);
  }

  stop(): Promise<void> {
    return this.listener.stop();
  }
}
