import { DEPRECATION_AREAS, DeprecationArea, DeprecationCatalogue, DeprecationEntry } from './deprecation-catalogue';
import { InvalidDeprecationQueryError } from './deprecation.errors';
import { compareMilestones, parseMilestone } from './milestone';
import { parseReportPath } from './pipeline-check/finding-report';

/** Filters of GET /deprecations: each one absent means "any". */
export interface DeprecationQuery {
  readonly removal_milestone: string | null;
  readonly breaking: boolean | null;
  readonly area: DeprecationArea | null;
  /** Free text: every word must occur (case-insensitive) in the id, title, change, replacement or an identifier. */
  readonly q: string | null;
}

const QUERY_PARAMETERS = ['removal_milestone', 'breaking', 'area', 'q'] as const;

function single(parameter: string, value: unknown): string | null {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string') throw new InvalidDeprecationQueryError(`${parameter} must be given once, as text`);
  return value;
}

/**
 * Reads the filters from a query string already split into parameters. Unknown parameters are
 * refused rather than ignored, so a misspelt filter (`milestone=16.0`) cannot silently list everything.
 */
export function parseDeprecationQuery(parameters: Readonly<Record<string, unknown>>): DeprecationQuery {
  const unknown = Object.keys(parameters).filter((name) => !(QUERY_PARAMETERS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new InvalidDeprecationQueryError(`unknown parameter ${unknown.join(', ')}; filters are ${QUERY_PARAMETERS.join(', ')}`);
  }
  const milestone = single('removal_milestone', parameters.removal_milestone);
  const breaking = single('breaking', parameters.breaking);
  const area = single('area', parameters.area);
  if (breaking !== null && breaking !== 'true' && breaking !== 'false') {
    throw new InvalidDeprecationQueryError(`breaking must be true or false, got ${JSON.stringify(breaking)}`);
  }
  const knownArea = DEPRECATION_AREAS.find((value) => value === area);
  if (area !== null && knownArea === undefined) {
    throw new InvalidDeprecationQueryError(`area must be one of ${DEPRECATION_AREAS.join(', ')}, got ${JSON.stringify(area)}`);
  }
  return {
    removal_milestone: milestone === null ? null : parseMilestone('removal_milestone', milestone),
    breaking: breaking === null ? null : breaking === 'true',
    area: knownArea ?? null,
    q: single('q', parameters.q)?.trim() || null,
  };
}

/** Response formats of a pipeline check: `{findings}` (the default), or a GitLab Code Quality report. */
export const CHECK_FORMATS = ['json', 'codequality'] as const;
export type CheckFormat = (typeof CHECK_FORMATS)[number];

/** Where a Code Quality report says the findings are when the request does not name the file. */
export const DEFAULT_CHECKED_PATH = '.gitlab-ci.yml';

export interface CheckRequest {
  readonly target: string | null;
  readonly format: CheckFormat;
  /** The checked file as reports name it (parseReportPath). */
  readonly path: string;
}

const CHECK_PARAMETERS = ['target', 'format', 'path'];

/** The query parameters of a pipeline check: an optional `target` milestone, `format` and `path`. */
export function parseCheckRequest(parameters: Readonly<Record<string, unknown>>): CheckRequest {
  const unknown = Object.keys(parameters).filter((name) => !CHECK_PARAMETERS.includes(name));
  if (unknown.length > 0) throw new InvalidDeprecationQueryError(`unknown parameter ${unknown.join(', ')}; the parameters are ${CHECK_PARAMETERS.join(', ')}`);
  const target = single('target', parameters.target);
  const format = single('format', parameters.format) ?? 'json';
  const knownFormat = CHECK_FORMATS.find((value) => value === format);
  if (knownFormat === undefined) throw new InvalidDeprecationQueryError(`format must be one of ${CHECK_FORMATS.join(', ')}, got ${JSON.stringify(format)}`);
  return {
    target: target === null ? null : parseMilestone('target', target),
    format: knownFormat,
    path: parseReportPath('path', single('path', parameters.path) ?? DEFAULT_CHECKED_PATH),
  };
}

/** Schedule order: by milestone numerically (15.10 after 15.9), then by area as the spec's 9.4 orders them, then catalogue order. */
export function compareScheduleOrder(
  a: Pick<DeprecationEntry, 'removal_milestone' | 'area'>,
  b: Pick<DeprecationEntry, 'removal_milestone' | 'area'>,
): number {
  return compareMilestones(a.removal_milestone, b.removal_milestone) || DEPRECATION_AREAS.indexOf(a.area) - DEPRECATION_AREAS.indexOf(b.area);
}

function searchableText(entry: DeprecationEntry): string {
  const identifiers = entry.identifiers.flatMap((identifier) => [identifier.name, identifier.replacement ?? '', ...identifier.aliases]);
  return [entry.id, entry.title, entry.change, entry.replacement ?? '', ...identifiers].join('\n').toLowerCase();
}

/** The entries matching every given filter, in schedule order (Array.prototype.sort is stable, keeping catalogue order on ties). */
export function findDeprecations(catalogue: DeprecationCatalogue, query: DeprecationQuery): DeprecationEntry[] {
  const words = query.q === null ? [] : query.q.toLowerCase().split(/\s+/);
  return catalogue.entries
    .filter((entry) => query.removal_milestone === null || compareMilestones(entry.removal_milestone, query.removal_milestone) === 0)
    .filter((entry) => query.breaking === null || entry.breaking === query.breaking)
    .filter((entry) => query.area === null || entry.area === query.area)
    .filter((entry) => {
      if (words.length === 0) return true;
      const text = searchableText(entry);
      return words.every((word) => text.includes(word));
    })
    .sort(compareScheduleOrder);
}
