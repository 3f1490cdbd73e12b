import { Topic } from '@alert-ingestion/contracts';
import { ConsumerGroup, KafkaNames } from './kafka-names';

describe('KafkaNames', () => {
  it('prefixes topics and groups with KAFKA_TOPIC_PREFIX', () => {
    const names = new KafkaNames('run1-');
    expect(names.topic(Topic.RawAlerts)).toBe('run1-alerts.raw.v1');
    expect(names.group(ConsumerGroup.AlertProcessor)).toBe('run1-alert-processor');
    expect(names.group(ConsumerGroup.IntegrationsRegistry, 'gateway', 'id')).toBe('run1-integrations-registry-gateway-id');
  });

  it('uses the bare names in production (no prefix)', () => {
    expect(new KafkaNames().topic(Topic.Integrations)).toBe('integrations.v1');
    expect(new KafkaNames().group(ConsumerGroup.IntegrationsRegistry, 'gateway', 'id')).toBe('integrations-registry-gateway-id');
  });
});
