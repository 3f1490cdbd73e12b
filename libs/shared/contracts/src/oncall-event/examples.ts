import { TopicExample } from '../topics/topic-example';
import { OncallEventValue } from './value';

/** An on-call event, as oncall.events.v1 carries it. */
export const ONCALL_EVENT_EXAMPLES: ReadonlyArray<TopicExample<OncallEventValue>> = [
  {
    name: 'oncall.shift_started',
    summary: 'A daily rotation handed over from maria to li at 09:00 in Berlin.',
    key: '5:2026-11-23T08:00:00.000Z',
    value: {
      type: 'oncall.shift_started',
      occurred_at: '2026-11-23T08:00:00.000Z',
      project_id: 2,
      schedule: { id: 5, name: 'Storage primary', time_zone: 'Europe/Berlin' },
      on_call: [
        {
          user: { id: 9, username: 'li' },
          reasons: [
            {
              source: 'rotation',
              rotation: { id: 11, name: 'Days' },
              override_id: null,
              shift_starts_at: '2026-11-23T08:00:00.000Z',
              shift_ends_at: '2026-11-24T08:00:00.000Z',
            },
          ],
        },
      ],
      previous: [{ id: 7, username: 'maria' }],
    },
  },
];
