import { IntegrationRegistry } from '@alert-ingestion/integrations-registry';
import { testKafka } from '@alert-ingestion/testing';

/** Reads the integrations topic the way the gateway does, to assert what integration-config published. */
export async function startTopicReader(prefix: string): Promise<IntegrationRegistry> {
  const registry = new IntegrationRegistry(testKafka(), { topicPrefix: prefix, consumerName: 'integration-config-test' });
  await registry.start();
  return registry;
}
