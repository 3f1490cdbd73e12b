import { AlertEvent, IntegrationSnapshot } from '..';
import { projectEventHeaders } from './cloud-events';
import { Topic } from './topic';
import { TOPIC_REGISTRY } from './topic-registry';

describe('projectEventHeaders', () => {
  it("names the event's project as its source, its type and its time, in binary content mode", () => {
    const event = AlertEvent.ALERT_EVENT_EXAMPLES[0].value;
    expect(projectEventHeaders(event, 'f0e1d2c3-b4a5-4687-9876-5a4b3c2d1e0f')).toEqual({
      ce_specversion: '1.0',
      ce_id: 'f0e1d2c3-b4a5-4687-9876-5a4b3c2d1e0f',
      ce_source: '/projects/2',
      ce_type: 'alert.created',
      ce_time: event.occurred_at,
      'content-type': 'application/json',
    });
  });
});

describe('TopicBinding.headers', () => {
  it('gives every record of a public topic CloudEvents headers with an id of its own', () => {
    const events = TOPIC_REGISTRY[Topic.AlertEvents];
    const event = AlertEvent.ALERT_EVENT_EXAMPLES[1].value;
    const [first, second] = [events.headers(event), events.headers(event)];
    expect(first).toMatchObject({ ce_type: 'alert.grouped', ce_source: '/projects/2', ce_time: event.occurred_at });
    expect(first.ce_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.ce_id).not.toBe(first.ce_id);
  });

  it('gives an internal topic none', () => {
    expect(TOPIC_REGISTRY[Topic.Integrations].headers(IntegrationSnapshot.INTEGRATION_SNAPSHOT_EXAMPLES[0].value)).toEqual({});
  });
});
