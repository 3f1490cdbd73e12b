import { TopicExample } from '../topics/topic-example';
import { DeadLetterValue } from './value';

/** A dead letter of a topic the processor consumes. */
export const DEAD_LETTER_EXAMPLES: ReadonlyArray<TopicExample<DeadLetterValue>> = [
  {
    name: 'not-json',
    summary: 'A message that is not JSON, kept with the reason.',
    key: null,
    value: {
      reason: 'value is not JSON: Unexpected token h in JSON at position 0',
      source_topic: 'alerts.raw.v1',
      source_partition: 4,
      source_offset: '18231',
      original_value: 'hello',
      failed_at: '2026-11-22T09:40:00.000Z',
    },
  },
];
