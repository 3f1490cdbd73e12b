import { compareIds } from './decimal-ids';
import {
  SILENCE_MATCHER_FIELDS,
  SILENCE_MATCHER_OPERATORS,
  SilenceMatcher,
  SilenceMatcherField,
  SilenceMatcherOperator,
  SilenceState,
} from '@alert-ingestion/contracts';
import { isJsonObject, JsonPathStep, JsonValue, valueAtPath } from '@alert-ingestion/json';
import { RE2JS } from 're2js';
import { NormalisedAlert } from './normalise-alert';

/**
 * Silences (maintenance windows) as Alertmanager users know them: a set of matchers on alert fields,
 * all of which must hold, and a time window. An alert that matches an active silence is stored and
 * grouped as usual and carries `silenced_by`, so that paging subscribers can skip it.
 */

export const SILENCE_LIMITS = {
  /** Matchers per silence. */
  matchers: 32,
  /** Characters of a matcher's value (a regex included): RE2 compiles in time linear in it. */
  valueLength: 1024,
  /** Steps of a payload path. */
  pathSteps: 32,
  /** Characters of a path step. */
  pathStepLength: 255,
} as const;

/** What a matcher reads of one alert payload: its alert fields, and the payload itself for a path. */
export interface SilenceableAlert {
  title: string;
  description: string | null;
  severity: string;
  service: string | null;
  monitoring_tool: string | null;
  hosts: readonly string[] | null;
  fingerprint: string | null;
  platform_environment_name: string | null;
  integration_id: string;
  payload: JsonValue;
}

/**
 * What the matchers read of one arriving payload: its fields normalised as spec 2.2 stores them and
 * the integration it came through. A silence is matched against each payload as it arrives, not
 * against the alert it is grouped into: the alert keeps its first payload's fields.
 */
export function silenceablePayload(payload: NormalisedAlert, integrationId: string): SilenceableAlert {
  return {
    title: payload.title,
    description: payload.description,
    severity: payload.severity,
    service: payload.service,
    monitoring_tool: payload.monitoringTool,
    hosts: payload.hosts,
    fingerprint: payload.fingerprint,
    platform_environment_name: payload.platformEnvironmentName,
    integration_id: integrationId,
    payload: payload.payload,
  };
}

/** A silence as the processor stores it (ids of bigint columns as decimal strings). */
export interface Silence {
  id: string;
  project_id: string;
  matchers: SilenceMatcher[];
  starts_at: Date;
  ends_at: Date;
  comment: string;
}

/** A silence with who created it (null: the administrator token) and when. */
export interface StoredSilence extends Silence {
  created_by: { id: string; username: string } | null;
  created_at: Date;
  updated_at: Date;
}

/** Alertmanager's states: pending before `starts_at`, active until `ends_at`, expired from then on. */
export function silenceState(silence: Pick<Silence, 'starts_at' | 'ends_at'>, now: Date): SilenceState {
  if (silence.ends_at.getTime() <= now.getTime()) return 'expired';
  if (silence.starts_at.getTime() > now.getTime()) return 'pending';
  return 'active';
}

/** What an alert carries while a silence covers it (ids as strings, as stored; `alertView` makes numbers). */
export interface SilenceReference {
  id: string;
  comment: string;
  ends_at: Date;
}

/**
 * The silence that covers `alert` (one payload of it, see silenceablePayload) at `now`: of the
 * silences of the alert's project that are active and whose matchers all hold, the one that ends last (the smallest id on a tie), so that a
 * subscriber learns how long the alert stays silenced; null when none does.
 */
export function silencingSilence(silences: readonly Silence[], alert: SilenceableAlert, now: Date): SilenceReference | null {
  let best: Silence | null = null;
  for (const silence of silences) {
    if (silenceState(silence, now) !== 'active' || !silence.matchers.every((matcher) => matcherHolds(matcher, alert))) continue;
    if (!best || silence.ends_at.getTime() > best.ends_at.getTime() || (silence.ends_at.getTime() === best.ends_at.getTime() && compareIds(silence.id, best.id) < 0)) {
      best = silence;
    }
  }
  return best && { id: best.id, comment: best.comment, ends_at: best.ends_at };
}

/**
 * Whether one matcher holds for an alert, as Alertmanager evaluates a label matcher: a missing value
 * (a null field, an absent path) is the empty string, so `service = ""` matches alerts without a
 * service and `service != ""` those with one. `hosts` holds a list: `=` and `=~` hold when any host
 * matches, `!=` and `!~` when none does (an alert without hosts has the one host `""`). A payload
 * value that is no string is compared as its JSON text (`3`, `true`, `["a"]`).
 */
export function matcherHolds(matcher: SilenceMatcher, alert: SilenceableAlert): boolean {
  const values = matcherValues(matcher, alert);
  const positive = matcher.operator === '=' || matcher.operator === '=~';
  const test = matcher.operator === '=' || matcher.operator === '!=' ? (text: string) => text === matcher.value : compiledRegex(matcher.value);
  const any = values.some(test);
  return positive ? any : !any;
}

function matcherValues(matcher: SilenceMatcher, alert: SilenceableAlert): string[] {
  if ('path' in matcher) return [payloadText(valueAtPath(alert.payload, matcher.path))];
  if (matcher.field === 'hosts') return alert.hosts && alert.hosts.length > 0 ? [...alert.hosts] : [''];
  return [alert[matcher.field] ?? ''];
}

function payloadText(value: JsonValue | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * Regexes run on RE2 (re2js, a pure JavaScript port): matching takes time linear in the text
 * whatever the pattern, so a silence cannot stall the receive path (no backtracking, no timeout
 * needed), and the syntax is Alertmanager's own (Go's RE2). Anchored like Alertmanager's: the
 * pattern must match the whole value (`^(?:pattern)$`). Compiled patterns are kept by text.
 */
const compiled = new Map<string, (text: string) => boolean>();
const COMPILED_KEPT = 1000;

function compiledRegex(pattern: string): (text: string) => boolean {
  let test = compiled.get(pattern);
  if (!test) {
    const regex = RE2JS.compile(`^(?:${pattern})$`);
    test = (text: string) => regex.matches(text);
    if (compiled.size >= COMPILED_KEPT) compiled.delete(compiled.keys().next().value as string);
    compiled.set(pattern, test);
  }
  return test;
}

/**
 * Why a regex cannot be used, in plain words, or null: RE2's syntax error (backreferences and
 * lookarounds are not RE2), said without the parser's wording: "a ( is not closed."
 */
export function regexProblem(pattern: string): string | null {
  try {
    // The pattern alone first, so the error quotes what was typed, not the anchors added around it.
    RE2JS.compile(pattern);
    RE2JS.compile(`^(?:${pattern})$`);
    return null;
  } catch (error) {
    return plainRegexProblem((error as Error).message);
  }
}

/** RE2's syntax errors (Go's regexp/syntax codes) as people say them. */
const REGEX_PROBLEMS: ReadonlyArray<[RegExp, (quoted: string) => string]> = [
  [/^missing closing \)/, () => 'a ( is not closed.'],
  [/^unexpected \)/, () => 'a ) closes nothing.'],
  [/^missing closing \]/, () => 'a [ is not closed.'],
  [/^missing argument to repetition operator/, (quoted) => `${quoted || 'a repetition'} has nothing before it to repeat.`],
  [/^invalid nested repetition operator/, (quoted) => `${quoted || 'a repetition'} repeats a repetition.`],
  [/^invalid repeat count/, (quoted) => `the repeat count ${quoted} is not valid (at most 1000, the smaller first).`],
  [/^invalid character class range/, (quoted) => `the range ${quoted} is not valid (the smaller character first).`],
  [/^invalid character class/, (quoted) => `the character class ${quoted} is not valid.`],
  [/^invalid escape sequence/, (quoted) => `${quoted || 'an escape'} is not an escape RE2 knows (RE2 has no backreferences).`],
  [/^trailing backslash/, () => 'it ends with a \\ that escapes nothing.'],
  [/^invalid named capture|^invalid or unsupported Perl syntax/, (quoted) => `the group ${quoted} is not RE2 syntax (RE2 has no lookahead or lookbehind).`],
];

function plainRegexProblem(message: string): string {
  const text = message.replace(/^error parsing regexp:\s*/, '');
  const quotedText = /: `(.*)`$/.exec(text)?.[1];
  const quoted = quotedText ? `\`${quotedText}\`` : '';
  for (const [code, say] of REGEX_PROBLEMS) if (code.test(text)) return say(quoted);
  return `${text.charAt(0).toLowerCase()}${text.slice(1)}${text.endsWith('.') ? '' : '.'}`;
}

/**
 * Whether a matcher holds for a value that is empty (a field the alert does not have): as in
 * Alertmanager, a silence whose matchers all do would silence every alert.
 */
export function matchesEmptyValue(matcher: SilenceMatcher): boolean {
  const positive = matcher.operator === '=' || matcher.operator === '=~';
  const matches = matcher.operator === '=' || matcher.operator === '!=' ? matcher.value === '' : compiledRegex(matcher.value)('');
  return positive ? matches : !matches;
}

/** A value checked, or why not; `field` names the request field in error as a client writes it (`matchers[0].value`). */
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string; field?: string };

/**
 * The matchers of a request body, checked: at least one and at most SILENCE_LIMITS.matchers; each
 * exactly `{field, operator, value}` or `{path, operator, value}` (a field of SILENCE_MATCHER_FIELDS,
 * a path of object keys and array indexes), a string value of bounded length, and for `=~` and `!~`
 * a regex RE2 compiles; and, as Alertmanager asks, at least one matcher that does not match the
 * empty string (matchers that all do would silence every alert). A refusal names its field
 * (`matchers[0].value`) and says what is wrong in plain words.
 */
export function parseSilenceMatchers(input: unknown): Parsed<SilenceMatcher[]> {
  if (!Array.isArray(input) || input.length === 0) return fail('matchers must be a non-empty array: a silence needs at least one matcher.', 'matchers');
  if (input.length > SILENCE_LIMITS.matchers) return fail(`A silence takes at most ${SILENCE_LIMITS.matchers} matchers.`, 'matchers');
  const matchers: SilenceMatcher[] = [];
  for (const [index, entry] of input.entries()) {
    const parsed = parseMatcher(entry);
    if (!parsed.ok) return fail(`matchers[${index}]: ${parsed.message}`, `matchers[${index}]${parsed.field ? `.${parsed.field}` : ''}`);
    matchers.push(parsed.value);
  }
  if (matchers.every(matchesEmptyValue)) {
    return fail(
      'At least one matcher must not match the empty value: as they are, the matchers also match alerts that lack the value, so the silence would silence every alert.',
      'matchers',
    );
  }
  return { ok: true, value: matchers };
}

function parseMatcher(entry: unknown): Parsed<SilenceMatcher> {
  if (!isJsonObject(entry as JsonValue)) return fail('a matcher is an object {field, operator, value} or {path, operator, value}.');
  const record = entry as Record<string, unknown>;
  const unknownKeys = Object.keys(record).filter((key) => !['field', 'path', 'operator', 'value'].includes(key));
  if (unknownKeys.length > 0) return fail(`unknown property ${unknownKeys.map((key) => `"${key}"`).join(', ')}.`);
  const { field, path, operator, value } = record;
  if (!SILENCE_MATCHER_OPERATORS.includes(operator as SilenceMatcherOperator)) {
    return fail(`operator must be one of ${SILENCE_MATCHER_OPERATORS.map((op) => `"${op}"`).join(', ')}.`, 'operator');
  }
  if (typeof value !== 'string') return fail('value must be a string.', 'value');
  if (value.length > SILENCE_LIMITS.valueLength) return fail(`value must be at most ${SILENCE_LIMITS.valueLength} characters.`, 'value');
  const op = operator as SilenceMatcherOperator;
  if (op === '=~' || op === '!~') {
    const problem = regexProblem(value);
    if (problem !== null) return fail(`This is not a valid regular expression (RE2 syntax): ${problem}`, 'value');
  }
  if ((field === undefined) === (path === undefined)) return fail('a matcher names either a field or a path, not both.');
  if (field !== undefined) {
    if (!SILENCE_MATCHER_FIELDS.includes(field as SilenceMatcherField)) return fail(`field must be one of ${SILENCE_MATCHER_FIELDS.join(', ')}.`, 'field');
    return { ok: true, value: { field: field as SilenceMatcherField, operator: op, value } };
  }
  const steps = parsePath(path);
  if (!steps.ok) return steps;
  return { ok: true, value: { path: steps.value, operator: op, value } };
}

function parsePath(path: unknown): Parsed<JsonPathStep[]> {
  if (!Array.isArray(path) || path.length === 0 || path.length > SILENCE_LIMITS.pathSteps) {
    return fail(`path must be a non-empty array of at most ${SILENCE_LIMITS.pathSteps} object keys and array indexes.`, 'path');
  }
  for (const step of path) {
    const key = typeof step === 'string' && step.length > 0 && step.length <= SILENCE_LIMITS.pathStepLength;
    const index = typeof step === 'number' && Number.isInteger(step) && step >= 0;
    if (!key && !index) return fail(`path steps are object keys (1 to ${SILENCE_LIMITS.pathStepLength} characters) or array indexes (integers from 0).`, 'path');
  }
  return { ok: true, value: path as JsonPathStep[] };
}

/** The window of a silence, checked: `ends_at` after `starts_at`, both valid times. */
export function checkSilenceWindow(startsAt: Date, endsAt: Date): Parsed<{ starts_at: Date; ends_at: Date }> {
  if (Number.isNaN(startsAt.getTime())) return fail('starts_at must be an ISO 8601 time.', 'starts_at');
  if (Number.isNaN(endsAt.getTime())) return fail('ends_at must be an ISO 8601 time.', 'ends_at');
  if (endsAt.getTime() <= startsAt.getTime()) return fail('ends_at must be after starts_at.', 'ends_at');
  return { ok: true, value: { starts_at: startsAt, ends_at: endsAt } };
}

function fail(message: string, field?: string): { ok: false; message: string; field?: string } {
  return field === undefined ? { ok: false, message } : { ok: false, message, field };
}
