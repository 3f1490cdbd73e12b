/**
 * The deprecation catalogue: the removal schedule of spec sections 9.3 to 9.6, the policy of 9.2
 * and the receiver's feature history of 9.1, as data. Property names are snake_case because they
 * are the catalogue files' field names and the API's JSON field names (CONTRACT.md).
 */

import { DeprecationEntry } from '@alert-ingestion/contracts';
import type { HttpSchemas } from '@alert-ingestion/contracts/http';

// The entry's shapes and constants are the API's (libs/shared/contracts/src/deprecations), shared with the console.
export {
  CHANGE_KINDS,
  DEPRECATION_AREA_TITLES,
  DEPRECATION_AREAS,
  IDENTIFIER_KINDS,
  type ChangeKind,
  type DeprecationArea,
  type DeprecationEntry,
  type DeprecationIdentifier,
  type IdentifierKind,
  type MilestoneStage,
} from '@alert-ingestion/contracts';

export interface DeprecationPolicyRule {
  readonly id: string;
  readonly rule: string;
}

export interface DeprecationPolicy {
  readonly spec_section: string;
  readonly rules: readonly DeprecationPolicyRule[];
  /** The spec does not mark which removals are breaking (9.2 rule 2); this is the team's criterion. */
  readonly breaking_definition: string;
}

export const RECEIVER_FEATURE_CHANGE_KINDS = ['tier_change', 'deprecation'] as const;

export type ReceiverFeatureChange = HttpSchemas['ReceiverFeatureChangeDto'];

/** A receiver feature's history (`GET /alert_integrations/feature_history`): when it came and how it changed since. */
export type ReceiverFeature = HttpSchemas['ReceiverFeatureDto'];

export interface DeprecationCatalogue {
  /** Schedule entries in catalogue order (file by file, entry by entry). */
  readonly entries: readonly DeprecationEntry[];
  readonly policy: DeprecationPolicy;
  readonly feature_history: readonly ReceiverFeature[];
}
