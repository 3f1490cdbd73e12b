/**
 * A deprecation catalogue entry as `GET /deprecations` answers it: the removal schedule of spec
 * sections 9.3 to 9.6. Property names are snake_case because they are the catalogue files' field
 * names and the API's JSON field names (CONTRACT.md).
 */

/** The three areas are the sub-table headings of spec 9.4; every other entry is filed under one of them. */
export const DEPRECATION_AREAS = ['interface_and_api', 'ci_cd_configuration', 'administration_and_deployment'] as const;
export type DeprecationArea = (typeof DEPRECATION_AREAS)[number];

export const DEPRECATION_AREA_TITLES: Readonly<Record<DeprecationArea, string>> = {
  interface_and_api: 'Interface and API changes',
  ci_cd_configuration: 'CI/CD configuration',
  administration_and_deployment: 'Administration and deployment',
};

/** Kind of change an entry (or one stage of it) makes at its milestone. */
export const CHANGE_KINDS = [
  'removal',
  'rename',
  'move',
  'replacement',
  'behaviour_change',
  'default_change',
  'limit',
  'end_of_support',
  'tier_change',
  'warning',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/** What an exact identifier of the spec names, so clients (and the checker) can match it. */
export const IDENTIFIER_KINDS = [
  'variable',
  'variable_prefix',
  'keyword',
  'job',
  'endpoint',
  'api_field',
  'api_parameter',
  'graphql_type',
  'graphql_field',
  'graphql_argument',
  'graphql_query',
  'graphql_mutation',
  'feature_flag',
  'setting',
  'command',
  'analyzer',
  'agent_directive',
  'quick_action',
  'label',
  'value',
  'http_status',
  'limit',
] as const;
export type IdentifierKind = (typeof IDENTIFIER_KINDS)[number];

export interface DeprecationIdentifier {
  readonly kind: IdentifierKind;
  /** Exactly as the spec writes it. */
  readonly name: string;
  /** The identifier to use instead, exactly as the spec writes it. */
  readonly replacement: string | null;
  /** A number or text the spec attaches (a limit, the last major version that is no longer updated). */
  readonly value: string | number | null;
  /** Which product or analyzer the identifier belongs to, in the spec's words. */
  readonly context: string | null;
  /** Other spellings met in real configurations (e.g. analyzer image names). Not shown in the spec: our choice. */
  readonly aliases: readonly string[];
}

/** A further dated step of the same entry (end of support before removal, warnings first, removal after a no-op). */
export interface MilestoneStage {
  readonly milestone: string;
  readonly planned_date: string | null;
  readonly kind: ChangeKind;
  readonly breaking: boolean;
  readonly change: string;
}

export interface DeprecationEntry {
  /** Stable: never contains a milestone, because planned dates may slip (spec 9.2 rule 2). */
  readonly id: string;
  readonly title: string;
  readonly area: DeprecationArea;
  readonly kind: ChangeKind;
  readonly removal_milestone: string;
  readonly planned_date: string | null;
  readonly breaking: boolean;
  /** The spec's own text for the change (its "Change" or "Replacement / rule" column). */
  readonly change: string;
  /** What to do instead; null when the spec names nothing. */
  readonly replacement: string | null;
  readonly identifiers: readonly DeprecationIdentifier[];
  readonly other_milestones: readonly MilestoneStage[];
  /** Spec section (and sub-table) the entry comes from, e.g. "9.4 CI/CD configuration". */
  readonly spec_section: string;
}
