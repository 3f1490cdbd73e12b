/**
 * A deprecation catalogue entry as `GET /deprecations` answers it: the removal schedule of spec
 * sections 9.3 to 9.6. Property names are snake_case because they are the catalogue files' field
 * names and the API's JSON field names (CONTRACT.md).
 */
import type { HttpSchemas } from '../http';

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

export type DeprecationIdentifier = HttpSchemas['DeprecationIdentifierDto'];

/** A further dated step of the same entry (end of support before removal, warnings first, removal after a no-op). */
export type MilestoneStage = HttpSchemas['MilestoneStageDto'];

export type DeprecationEntry = HttpSchemas['DeprecationEntryDto'];
