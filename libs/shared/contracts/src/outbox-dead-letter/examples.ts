import { TopicExample } from '../topics/topic-example';
import { OutboxDeadLetterValue } from './value';

/** A record an outbox relay could not publish, as its topic's dead-letter topic carries it. */
export const OUTBOX_DEAD_LETTER_EXAMPLES: ReadonlyArray<TopicExample<OutboxDeadLetterValue>> = [
  {
    name: 'refused',
    summary: 'An event the broker refused three times, kept with the reason and as much of its value as fits.',
    key: '2:12',
    value: {
      reason: 'refused by the broker 3 times: The request included a message larger than the max message size the server will accept',
      topic: 'alerts.events.v1',
      key: '2:12',
      outbox_id: '88213',
      value: '{"type":"alert.created","occurred_at":"2026-11-22T09:30:00.412Z","project_id":2,"alert":{"iid":12,',
      value_bytes: 2101248,
      value_truncated: true,
      failed_at: '2026-11-22T09:30:05.000Z',
    },
  },
];
