import { ReplySender } from '@alert-ingestion/alert-replies';
import { AlertReply, RawAlert, Topic, TOPIC_REGISTRY } from '@alert-ingestion/contracts';
import { waitForGroupJoin, KafkaNames } from '@alert-ingestion/kafka';
import { Consumer, Kafka } from 'kafkajs';

export type RawAlertValue = RawAlert.RawAlertValue;

export interface ReceivedRawAlert {
  key: string | null;
  partition: number;
  value: RawAlertValue;
}

/** What the stand-in answers for one raw alert: a reply, or nothing (the gateway then answers 202). */
export type StandInAnswer = { status: 'processed'; titles: string[] } | { status: 'rejected'; error: string; message: string } | 'no_reply';

/**
 * Plays the alert processor's part of the reply contract for the gateway's own tests: reads
 * alerts.raw.v1, records every message, and posts the reply to the message's reply_endpoint (the
 * gateway instance's reply listener) through the processor's ReplySender, as the processor does
 * after its commit. It lets these tests decide the reply (processed, rejected,
 * none); the end-to-end specs run the real processor.
 */
export class ProcessorStandIn {
  readonly received: ReceivedRawAlert[] = [];
  private consumer: Consumer | undefined;
  private readonly replies = new ReplySender({ timeoutMs: 2_000, logger: { warn: () => undefined } });
  private nextIid = 1;

  constructor(
    private readonly kafka: Kafka,
    private readonly prefix: string,
    private readonly answer: (value: RawAlertValue) => StandInAnswer | Promise<StandInAnswer>,
  ) {}

  async start(): Promise<void> {
    this.consumer = this.kafka.consumer({ groupId: `${this.prefix}processor-stand-in`, maxWaitTimeInMs: 20 });
    await this.consumer.connect();
    await this.consumer.subscribe({ topic: new KafkaNames(this.prefix).topic(Topic.RawAlerts), fromBeginning: true });
    const joined = waitForGroupJoin(this.consumer);
    await this.consumer.run({
      eachMessage: async ({ message, partition }) => {
        const value = TOPIC_REGISTRY[Topic.RawAlerts].decode(message.value);
        this.received.push({ key: message.key?.toString() ?? null, partition, value });
        const answer = await this.answer(value);
        if (answer === 'no_reply' || !value.reply_to || !value.reply_endpoint) return;
        const reply: AlertReply.AlertReplyValue =
          answer.status === 'processed'
            ? { request_id: value.request_id, reply_to: value.reply_to, status: 'processed', alerts: answer.titles.map((title) => ({ iid: this.nextIid++, title })) }
            : { request_id: value.request_id, reply_to: value.reply_to, status: 'rejected', alerts: [], error: { error: answer.error, message: answer.message } };
        this.replies.send([{ endpoint: value.reply_endpoint, value: reply }]);
      },
    });
    await joined;
  }

  byRequestId(requestId: string): ReceivedRawAlert[] {
    return this.received.filter((entry) => entry.value.request_id === requestId);
  }

  async stop(): Promise<void> {
    await this.consumer?.disconnect();
    await this.replies.drain();
  }
}
