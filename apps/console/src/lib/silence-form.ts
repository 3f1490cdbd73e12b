import { Alert, PayloadPath, SilenceMatcher, SilenceMatcherField, SilenceMatcherOperator } from '@console/api/types';

/** One row of the matcher editor: an alert field or a payload path, an operator and a value. */
export interface MatcherRow {
  target: 'field' | 'path';
  field: SilenceMatcherField;
  /** The payload path as typed: `labels.team`, or a JSON array such as `["labels", "a.b", 0]`. */
  path: string;
  operator: SilenceMatcherOperator;
  value: string;
}

export const MATCHER_FIELD_LABELS: Readonly<Record<SilenceMatcherField, string>> = {
  title: 'Title',
  description: 'Description',
  severity: 'Severity',
  service: 'Service',
  monitoring_tool: 'Monitoring tool',
  hosts: 'Hosts (any)',
  fingerprint: 'Fingerprint',
  platform_environment_name: 'Environment',
  integration_id: 'Integration id',
};

export const OPERATOR_LABELS: Readonly<Record<SilenceMatcherOperator, string>> = {
  '=': '= equals',
  '!=': '!= does not equal',
  '=~': '=~ matches regex',
  '!~': '!~ does not match regex',
};

export function emptyRow(): MatcherRow {
  return { target: 'field', field: 'title', path: '', operator: '=', value: '' };
}

/** A path as the editor shows it: dotted when every key is plain, else as JSON. */
export function pathText(path: PayloadPath): string {
  const plain = path.every((step) => typeof step === 'string' && /^[A-Za-z_][\w-]*$/.test(step));
  return plain ? path.join('.') : JSON.stringify(path);
}

/** The path typed in the editor: a JSON array of keys and indexes, or dotted keys; null when it is none. */
export function parsePathText(text: string): PayloadPath | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      const valid =
        Array.isArray(parsed) &&
        parsed.length > 0 &&
        parsed.every((step) => (typeof step === 'string' && step !== '') || (typeof step === 'number' && Number.isInteger(step) && step >= 0));
      return valid ? (parsed as PayloadPath) : null;
    } catch {
      return null;
    }
  }
  const steps = trimmed.split('.');
  return steps.every((step) => step !== '') ? steps : null;
}

export function rowsFromMatchers(matchers: readonly SilenceMatcher[]): MatcherRow[] {
  return matchers.map((matcher) =>
    'path' in matcher
      ? { ...emptyRow(), target: 'path', path: pathText(matcher.path), operator: matcher.operator, value: matcher.value }
      : { ...emptyRow(), field: matcher.field, operator: matcher.operator, value: matcher.value },
  );
}

/** The rows as matchers, or what is wrong and where: the row and its control (`path`, `value`). */
export type RowsCheck = { ok: true; matchers: SilenceMatcher[] } | { ok: false; message: string; row: number; at: 'path' | 'value' };

/** The rows as the API takes them; the API checks them again (regex syntax included). */
export function matchersFromRows(rows: readonly MatcherRow[]): RowsCheck {
  if (rows.length === 0) return { ok: false, message: 'Add at least one matcher.', row: 0, at: 'value' };
  const matchers: SilenceMatcher[] = [];
  for (const [index, row] of rows.entries()) {
    if (row.target === 'field') {
      matchers.push({ field: row.field, operator: row.operator, value: row.value });
      continue;
    }
    const path = parsePathText(row.path);
    if (!path) return { ok: false, message: 'Give the payload path as keys separated by dots (labels.team), or as a JSON array.', row: index, at: 'path' };
    matchers.push({ path, operator: row.operator, value: row.value });
  }
  if (matchers.every(matchesEmptyValue)) {
    return {
      ok: false,
      message: 'Give a value that alerts must have: as they are, the matchers also match alerts without the value, so the silence would silence every alert.',
      row: 0,
      at: 'value',
    };
  }
  return { ok: true, matchers };
}

/**
 * "Silence similar": matchers that pick out alerts like this one. Its fingerprint when it has one
 * (the alerts grouped with it); otherwise its title and, when it has one, its service.
 */
export function similarMatchers(alert: Pick<Alert, 'fingerprint' | 'title' | 'service'>): SilenceMatcher[] {
  if (alert.fingerprint) return [{ field: 'fingerprint', operator: '=', value: alert.fingerprint }];
  const matchers: SilenceMatcher[] = [{ field: 'title', operator: '=', value: alert.title }];
  if (alert.service) matchers.push({ field: 'service', operator: '=', value: alert.service });
  return matchers;
}

/** A matcher as Alertmanager writes it: `service="checkout"`, `labels.team=~"stor.*"`. */
export function describeMatcher(matcher: SilenceMatcher): string {
  const name = 'path' in matcher ? pathText(matcher.path) : matcher.field;
  return `${name}${matcher.operator}${JSON.stringify(matcher.value)}`;
}

/**
 * An ISO time as the silence form's `datetime-local` inputs show it: in UTC, as the console states
 * every time, so that the window a maintainer types is the one stored whatever the browser's zone.
 */
export function toUtcInput(iso: string): string {
  return new Date(iso).toISOString().slice(0, 16);
}

/** A `datetime-local` value taken as UTC, as ISO; null when empty or invalid. */
export function fromUtcInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value.trim())) return null;
  const date = new Date(`${value.trim()}Z`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** "2026-11-26 18:00 UTC": a silence's start or end as the form and the list say it. */
export function utcMinute(iso: string): string {
  return `${toUtcInput(iso).replace('T', ' ')} UTC`;
}

/**
 * Whether a matcher holds for an empty value (a field the alert lacks). As in Alertmanager, a
 * silence needs one that does not: matchers that all do would silence every alert. A regex the
 * browser cannot read is left to the API, which checks RE2's syntax.
 */
export function matchesEmptyValue(matcher: Pick<SilenceMatcher, 'operator' | 'value'>): boolean {
  const positive = matcher.operator === '=' || matcher.operator === '=~';
  let matches: boolean;
  if (matcher.operator === '=' || matcher.operator === '!=') matches = matcher.value === '';
  else {
    try {
      matches = new RegExp(`^(?:${matcher.value})$`, 'u').test('');
    } catch {
      return false;
    }
  }
  return positive ? matches : !matches;
}
