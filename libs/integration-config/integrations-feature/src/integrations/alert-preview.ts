import { alertCandidates, AlertCandidate } from '@alert-ingestion/alerts-domain';
import { PayloadFieldMappingEntry, PreviewAlert, ProjectTier } from '@alert-ingestion/contracts';
import { BadRequestError, ForbiddenError } from '@alert-ingestion/http';
import { validatePayloadFieldMapping } from '@alert-ingestion/integrations-domain';
import { isJsonObject, JsonObject, JsonValue } from '@alert-ingestion/json';
import { applyRules } from '../errors';

function present(candidate: AlertCandidate): PreviewAlert {
  return {
    title: candidate.title,
    description: candidate.description,
    severity: candidate.severity,
    started_at: candidate.startedAt.toISOString(),
    ended_at: candidate.endedAt?.toISOString() ?? null,
    service: candidate.service,
    monitoring_tool: candidate.monitoringTool,
    hosts: candidate.hosts,
    fingerprint: candidate.fingerprint,
    grouping_key: candidate.fingerprintSha256,
    platform_environment_name: candidate.platformEnvironmentName,
    payload: candidate.payload,
  };
}

/**
 * What a payload would become (the alert candidates the processor would store), with the same
 * normalisation code the processor runs (alertCandidates). A proposed payload field mapping is
 * checked like a saved one, against the payload itself when it is one alert (else against the
 * integration's sample payload); without one, the integration's saved mapping applies. Custom
 * mapping is Premium (403 on Free for a proposed one).
 */
export function previewAlerts(
  payload: JsonValue,
  integration: { tier: ProjectTier; payloadFieldMapping: PayloadFieldMappingEntry[]; samplePayload: JsonObject | null },
  proposedMapping: unknown,
  now: Date,
): PreviewAlert[] {
  let mapping = integration.payloadFieldMapping;
  if (proposedMapping !== undefined && proposedMapping !== null) {
    if (integration.tier !== 'premium') {
      throw new ForbiddenError('A payload field mapping (custom mapping) needs the Premium tier.', 'premium_required');
    }
    mapping = applyRules(() => validatePayloadFieldMapping(proposedMapping, isJsonObject(payload) ? payload : integration.samplePayload));
  }
  const candidates = alertCandidates(payload, { tier: integration.tier, payloadFieldMapping: mapping }, now);
  if (!candidates.ok) throw new BadRequestError('invalid_payload', `The payload is not an alert: ${candidates.reason}.`);
  return candidates.candidates.map(present);
}
