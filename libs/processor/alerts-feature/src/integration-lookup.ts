import { IntegrationSnapshot } from '@alert-ingestion/contracts';

/**
 * Where the processor learns an integration's tier and payload field mapping: the
 * IntegrationRegistry (in-memory view of the integrations topic) in the app; any object with the
 * same `findById` elsewhere.
 */
export interface IntegrationLookup {
  findById(id: string): IntegrationSnapshot.IntegrationSnapshotValue | undefined;
  /** The view's freshness policy (TopicView.findFresh): a result that may be news waits for the view to catch up. */
  findFresh<T>(find: () => T, isFinal: (found: T) => boolean, timeoutMs: number): Promise<T>;
}

export const INTEGRATION_LOOKUP = Symbol('INTEGRATION_LOOKUP');
