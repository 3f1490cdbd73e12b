import { JsonPathStep } from './json';

/**
 * NUL (U+0000) and UTF-16 surrogates without their pair: characters a JavaScript string can hold but
 * PostgreSQL cannot store (`text` and `jsonb` refuse NUL; UTF-8, the database's encoding, has no form
 * for a lone surrogate, and node-postgres silently sends U+FFFD for one). JSON carries them as escapes.
 */
const UNSTORABLE_CHARACTER = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_CHARACTERS = new RegExp(UNSTORABLE_CHARACTER.source, 'g');

/** The first character of `text` that PostgreSQL cannot store, or null. */
export function firstUnstorableCharacter(text: string): string | null {
  return UNSTORABLE_CHARACTER.exec(text)?.[0] ?? null;
}

/** `\u0000` for NUL, `\ud800` for a lone surrogate: the escape JSON.stringify writes for it. */
export function jsonEscape(character: string): string {
  return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `text` with every character PostgreSQL cannot store written as its JSON escape (six characters). */
export function escapeUnstorableCharacters(text: string): string {
  return text.replace(UNSTORABLE_CHARACTERS, jsonEscape);
}

/** Where a JSON value holds text PostgreSQL cannot store: in a string, or in an object's key. */
export interface UnstorableTextFound {
  path: JsonPathStep[];
  /** The text is a key of the object at `path`, not a value. */
  inKey: boolean;
  character: string;
}

/** The first string or object key within `value` (depth first, in order) that PostgreSQL cannot store. */
export function findUnstorableText(value: unknown, path: JsonPathStep[] = []): UnstorableTextFound | null {
  if (typeof value === 'string') {
    const character = firstUnstorableCharacter(value);
    return character === null ? null : { path, inKey: false, character };
  }
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = findUnstorableText(value[index], [...path, index]);
      if (found) return found;
    }
    return null;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const character = firstUnstorableCharacter(key);
      if (character !== null) return { path, inKey: true, character };
      const found = findUnstorableText(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}
