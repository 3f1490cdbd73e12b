export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** `valid`: what to say about a text that passes (default "Valid JSON."). */
export type JsonTextCheck = { ok: true; value: JsonValue; valid?: string } | { ok: false; message: string };

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks a JSON text as the user types it (spec 2.1 and 4.2: valid JSON is required). `object`
 * also requires a JSON object, as a sample payload is one alert. Where the text is not JSON, the
 * message says where it breaks (line and column) and why in plain words: never the JavaScript
 * engine's own text, which differs between browsers and names offsets and tokens.
 */
export function checkJsonText(text: string, options: { object?: boolean } = {}): JsonTextCheck {
  if (text.trim() === '') return { ok: false, message: 'Enter a JSON payload.' };
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return { ok: false, message: invalidJsonMessage(text) };
  }
  if (options.object && !isJsonObject(value)) {
    return { ok: false, message: `The payload must be a JSON object ({ ... }): one alert as the monitoring tool sends it, not ${kindOf(value)}.` };
  }
  return { ok: true, value };
}

/**
 * A test payload (spec 4.2) as the receiver takes it (CONTRACT.md "Receiving alerts"): one alert
 * object, an array of alert objects, or an Alertmanager webhook body, holding at least one alert.
 * Anything else would be refused by the gateway, or would create nothing.
 */
export function checkTestPayload(text: string): JsonTextCheck {
  const check = checkJsonText(text);
  if (!check.ok) return check;
  const { value } = check;
  if (Array.isArray(value)) {
    if (value.length === 0) return { ok: false, message: 'An empty array holds no alert: put one or more alert objects in it, as [{"title": "Disk full"}].' };
    const index = value.findIndex((element) => !isJsonObject(element));
    if (index !== -1) return { ok: false, message: `Element ${index + 1} of the array is ${kindOf(value[index])}, not an alert: each element must be a JSON object.` };
    return { ok: true, value, valid: `Valid JSON: ${value.length === 1 ? 'one alert' : `${value.length} alerts`}.` };
  }
  if (!isJsonObject(value)) {
    return { ok: false, message: `${capitalised(kindOf(value))} is not an alert: the test payload must be a JSON object (one alert) or an array of objects.` };
  }
  if (isAlertmanagerBody(value)) {
    const alerts = value['alerts'] as JsonValue[];
    if (alerts.length === 0) return { ok: false, message: 'This Alertmanager body holds no alert: its "alerts" list is empty.' };
    const index = alerts.findIndex((element) => !isJsonObject(element));
    if (index !== -1) return { ok: false, message: `Alert ${index + 1} of the Alertmanager body is ${kindOf(alerts[index])}: each must be a JSON object.` };
    return { ok: true, value, valid: `Valid JSON: an Alertmanager body of ${alerts.length === 1 ? 'one alert' : `${alerts.length} alerts`}.` };
  }
  return { ok: true, value, valid: 'Valid JSON: one alert.' };
}

/** An Alertmanager webhook body (CONTRACT.md: `version` "4", `groupKey`, `alerts`): one alert per element. */
function isAlertmanagerBody(value: JsonObject): boolean {
  return value['version'] === '4' && typeof value['groupKey'] === 'string' && Array.isArray(value['alerts']);
}

function kindOf(value: JsonValue): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'a JSON string';
  if (typeof value === 'number') return 'a number';
  return `the value ${String(value)}`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export interface JsonSyntaxError {
  /** 1-based, as an editor counts. */
  line: number;
  column: number;
  problem: string;
}

/** "Invalid JSON: <problem> (line L, column C)." for a text that JSON.parse refused. */
function invalidJsonMessage(text: string): string {
  const error = findJsonSyntaxError(text);
  if (!error) return 'Invalid JSON.';
  return `Invalid JSON: ${error.problem} (line ${error.line}, column ${error.column}).`;
}

type Expected = 'value' | 'value-or-close' | 'key' | 'key-or-close' | 'colon' | 'comma-or-close' | 'end';

const CLOSER = { '{': '}', '[': ']' } as const;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const WHITESPACE = new Set([' ', '\t', '\n', '\r']);

/**
 * Where a JSON text first breaks the grammar (RFC 8259), and why, in words; null when it is
 * valid. It walks the text with an explicit stack, so depth costs no call stack.
 */
export function findJsonSyntaxError(text: string): JsonSyntaxError | null {
  const stack: Array<'{' | '['> = [];
  let i = 0;
  let expected: Expected = 'value';
  // The comma just read, to tell "[1,]" (a comma too many) from "[1 2]" (a comma missing).
  let afterComma = false;
  const fail = (at: number, problem: string): JsonSyntaxError => ({ ...positionOf(text, at), problem });
  const afterValue = (): Expected => (stack.length > 0 ? 'comma-or-close' : 'end');

  for (;;) {
    while (i < text.length && WHITESPACE.has(text[i])) i++;
    if (i >= text.length) {
      if (expected === 'end') return null;
      return fail(i, endProblem(expected, stack));
    }
    const char = text[i];
    const top = stack[stack.length - 1];
    switch (expected) {
      case 'end':
        return fail(i, 'there is more text after the end of the JSON value');
      case 'colon':
        if (char !== ':') return fail(i, `a colon (:) is missing after the property name, before ${shown(text, i)}`);
        i++;
        expected = 'value';
        continue;
      case 'comma-or-close':
        if (char === ',') {
          i++;
          afterComma = true;
          expected = top === '{' ? 'key' : 'value';
          continue;
        }
        if (top !== undefined && char === CLOSER[top]) {
          i++;
          stack.pop();
          expected = afterValue();
          continue;
        }
        if (char === '}' || char === ']') return fail(i, `${char} does not match the ${top === '{' ? 'object' : 'array'} it closes (a ${top ? CLOSER[top] : ''} is expected)`);
        return fail(i, top === '{' ? `a comma or } is missing after the value, before ${shown(text, i)}` : `a comma or ] is missing after the element, before ${shown(text, i)}`);
      case 'key-or-close':
      case 'key': {
        if (char === '}') {
          if (expected === 'key') return fail(i, 'a comma is followed by no property: remove the comma before }');
          i++;
          stack.pop();
          expected = afterValue();
          continue;
        }
        if (char !== '"') {
          return fail(i, char === "'" ? 'property names take double quotes ("), not single quotes' : `a property name must be in double quotes, but ${shown(text, i)} is found`);
        }
        const unclosed = skipString(text, i);
        if (typeof unclosed !== 'number') return fail(unclosed.at, unclosed.problem);
        i = unclosed;
        expected = 'colon';
        afterComma = false;
        continue;
      }
      case 'value-or-close':
      case 'value': {
        if (char === ']' && top === '[' && (expected === 'value-or-close' || afterComma)) {
          if (afterComma) return fail(i, 'a comma is followed by no element: remove the comma before ]');
          i++;
          stack.pop();
          expected = afterValue();
          continue;
        }
        afterComma = false;
        if (char === '{' || char === '[') {
          stack.push(char);
          i++;
          expected = char === '{' ? 'key-or-close' : 'value-or-close';
          continue;
        }
        if (char === '"') {
          const end = skipString(text, i);
          if (typeof end !== 'number') return fail(end.at, end.problem);
          i = end;
          expected = afterValue();
          continue;
        }
        if (char === "'") return fail(i, 'strings take double quotes ("), not single quotes');
        if (char === '-' || char === '+' || char === '.' || (char >= '0' && char <= '9')) {
          const token = /^[-+.0-9eE]+/.exec(text.slice(i))?.[0] ?? char;
          if (!NUMBER.test(token)) return fail(i, `${token} is not a JSON number (as 12, -3.5 or 1e6, without leading zeros or a + sign)`);
          i += token.length;
          expected = afterValue();
          continue;
        }
        const word = /^[A-Za-z_$][\w$]*/.exec(text.slice(i))?.[0];
        if (word === 'true' || word === 'false' || word === 'null') {
          i += word.length;
          expected = afterValue();
          continue;
        }
        if (word) return fail(i, `${word} is not a JSON value: write text in double quotes, or use true, false or null`);
        return fail(i, `a value is missing before ${shown(text, i)} (an object, an array, a "string", a number, true, false or null)`);
      }
    }
  }
}

/** The offset after a string that starts at `start` (a double quote), or where and why it breaks. */
function skipString(text: string, start: number): number | { at: number; problem: string } {
  let i = start + 1;
  while (i < text.length) {
    const char = text[i];
    if (char === '"') return i + 1;
    if (char === '\\') {
      const escape = text[i + 1];
      if (escape === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return { at: i, problem: '\\u in a string must be followed by four hexadecimal digits' };
        i += 6;
        continue;
      }
      if (escape !== undefined && '"\\/bfnrt'.includes(escape)) {
        i += 2;
        continue;
      }
      if (escape === undefined) break;
      return { at: i, problem: `\\${escape} is not an escape JSON knows: use \\" \\\\ \\/ \\b \\f \\n \\r \\t or \\u followed by four hexadecimal digits` };
    }
    if (char < ' ') return { at: i, problem: 'a string holds a line break or tab: write it as \\n or \\t, or close the string with " before it' };
    i++;
  }
  const { line, column } = positionOf(text, start);
  return { at: text.length, problem: `the string that starts at line ${line}, column ${column} is not closed: its closing " is missing` };
}

function endProblem(expected: Expected, stack: ReadonlyArray<'{' | '['>): string {
  const closers = [...stack].reverse().map((open) => CLOSER[open]).join(' ');
  const open = closers ? `; still to close: ${closers}` : '';
  switch (expected) {
    case 'colon':
      return `the text ends after a property name, where a colon (:) and a value should follow${open}`;
    case 'key':
      return `the text ends after a comma, where another property should follow${open}`;
    case 'comma-or-close':
    case 'key-or-close':
    case 'value-or-close':
      return `the text ends before the JSON is complete${open}`;
    default:
      return `the text ends where a value should be${open}`;
  }
}

/** The character at `at` as a reader sees it, in quotes. */
function shown(text: string, at: number): string {
  const char = text[at];
  if (char === undefined) return 'the end';
  return `“${char}”`;
}

function positionOf(text: string, offset: number): { line: number; column: number } {
  const lines = text.slice(0, offset).split(/\r\n|\r|\n/);
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}
