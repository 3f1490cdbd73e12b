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
export function findUnstorableText(value: unknown): UnstorableTextFound | null {
  // One path, extended and shortened while walking (every request's body and query pass here): it
  // is copied only for what is found.
  const path: JsonPathStep[] = [];
  const within = (step: JsonPathStep, child: unknown): UnstorableTextFound | null => {
    path.push(step);
    const found = walk(child);
    path.pop();
    return found;
  };
  const walk = (item: unknown): UnstorableTextFound | null => {
    if (typeof item === 'string') {
      const character = firstUnstorableCharacter(item);
      return character === null ? null : { path: [...path], inKey: false, character };
    }
    if (Array.isArray(item)) {
      for (let index = 0; index < item.length; index++) {
        const found = within(index, item[index]);
        if (found) return found;
      }
      return null;
    }
    if (typeof item !== 'object' || item === null) return null;
    for (const [key, child] of Object.entries(item)) {
      const character = firstUnstorableCharacter(key);
      if (character !== null) return { path: [...path], inKey: true, character };
      const found = within(key, child);
      if (found) return found;
    }
    return null;
  };
  return walk(value);
}
