import { DeprecationEntry, DeprecationIdentifier, IdentifierKind } from '../deprecation-catalogue';
import { CatalogueError } from '../deprecation.errors';
import { PipelineConfiguration } from './pipeline-configuration';

/** One use of a deprecated feature found in a pipeline configuration, before the catalogue adds its milestone. */
export interface RuleHit {
  readonly line: number;
  readonly message: string;
  readonly replacement: string | null;
  /** What the hit is about, built with subjectOf; the stable part of its fingerprint. */
  readonly subject: string;
}

export type PreparedRule = (configuration: PipelineConfiguration) => RuleHit[];

/**
 * A checker rule. Its identifiers, milestone and replacement come from the catalogue entry it is
 * bound to, so the schedule has one source; `prepare` fails at start-up when the entry lacks what
 * the rule reads.
 */
export interface PipelineRule {
  /** The `rule` of a finding. */
  readonly rule: string;
  readonly deprecationId: string;
  prepare(entry: DeprecationEntry): PreparedRule;
}

/** The entry's identifiers lack what a rule reads: a catalogue error, so start-up fails. */
export function identifiersError(entry: DeprecationEntry, reason: string): CatalogueError {
  return new CatalogueError(`entry ${entry.id}`, 'identifiers', null, reason);
}

export function identifiersOf(entry: DeprecationEntry, kind: IdentifierKind, rule: string): DeprecationIdentifier[] {
  const found = entry.identifiers.filter((identifier) => identifier.kind === kind);
  if (found.length === 0) throw identifiersError(entry, `checker rule ${rule} needs at least one identifier of kind ${kind}`);
  return found;
}

/** "removed in 16.0 (spec 9.5)": the when and where every message ends with. */
export function scheduledIn(entry: DeprecationEntry): string {
  return `${entry.removal_milestone} (spec ${entry.spec_section.split(' ')[0]})`;
}

/**
 * A hit's subject: where it sits (the job or global keyword, PipelineConfiguration.contextOf) and
 * what it names (a keyword, variable, image or template), never its line or wording. It is hashed
 * into the finding's fingerprint, not parsed.
 */
export function subjectOf(...parts: readonly string[]): string {
  return parts.join(' / ');
}

/** A pattern matching any of the names as a whole word (CI_BUILD_REF must not match inside CI_BUILD_REF_NAME). */
export function wholeWords(names: readonly string[]): RegExp {
  const escaped = [...names].sort((a, b) => b.length - a.length).map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![A-Za-z0-9_])(${escaped.join('|')})(?![A-Za-z0-9_])`, 'g');
}
