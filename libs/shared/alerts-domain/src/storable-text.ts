import { escapeUnstorableCharacters } from '@alert-ingestion/json';

/**
 * Text of an alert's text fields (title, description, service, hosts, ...) as it is stored and
 * shown: NUL and unpaired UTF-16 surrogates, which PostgreSQL cannot store, are written as their
 * JSON escape (`a\u0000b` becomes the eight characters `a\u0000b`), so the text stays readable and
 * distinct from any other. An alert payload is never refused for its text (a monitoring tool
 * cannot fix its payloads), and its `payload` keeps the exact value: the `json` column and the
 * alert events carry such characters as JSON escapes, and the fingerprint is computed from the
 * exact value.
 */
export function storableText(text: string): string {
  return escapeUnstorableCharacters(text);
}
