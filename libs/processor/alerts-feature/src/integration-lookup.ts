import { IntegrationSnapshot } from '@alert-ingestion/contracts';

/**
 * Where the processor learns an integration's tier and payload field mapping: the
 * IntegrationRegistry (in-memory view of the integrations topic) in the app; any object with the
 * same `findById` elsewhere.
 */
export interface IntegrationLookup {
  findById(id: string): IntegrationSnapshot.IntegrationSnapshotValue | undefined;
  /** Resolves true once everything published before the call is in the view (false after timeoutMs). */
  awaitLatest(timeoutMs: number): Promise<boolean>;
}

export const INTEGRATION_LOOKUP = Symbol('INTEGRATION_LOOKUP');
