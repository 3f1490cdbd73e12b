import { PayloadFieldMappingEntry, ProjectTier } from '@alert-ingestion/contracts';
import { JsonValue } from '@alert-ingestion/json';
import { splitAlertPayloads } from './alert-payloads';
import { fingerprintSha256 } from './fingerprint';
import { NormalisedAlert, normaliseAlert } from './normalise-alert';

/** What the processor needs to know about the integration a payload came through. */
export interface IntegrationRules {
  tier: ProjectTier;
  /** Spec 2.1: Premium only; ignored on Free (a project moved back to Free may still hold one). */
  payloadFieldMapping: readonly PayloadFieldMappingEntry[];
}

/** One alert payload ready for grouping and storage. */
export interface AlertCandidate extends NormalisedAlert {
  fingerprintSha256: string | null;
}

export type AlertCandidatesResult = { ok: true; candidates: AlertCandidate[] } | { ok: false; reason: string };

/**
 * Turns a receive request body into alert candidates, in request order: split (object, array or
 * Alertmanager body), payload field mapping, spec 2.2 normalisation and fingerprint.
 * `receivedAt` stands for "now" (spec 2.2 default start time) so redelivery is deterministic.
 */
export function alertCandidates(body: JsonValue, integration: IntegrationRules, receivedAt: Date): AlertCandidatesResult {
  const mapping = integration.tier === 'premium' ? integration.payloadFieldMapping : [];
  const split = splitAlertPayloads(body, mapping);
  if (!split.ok) return split;
  return {
    ok: true,
    candidates: split.sources.map((source) => ({
      ...normaliseAlert(source, receivedAt),
      fingerprintSha256: fingerprintSha256(source, integration.tier),
    })),
  };
}
