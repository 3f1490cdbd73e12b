/**
 * Values written into SQL text, for statements that travel several to a query (a parameterised
 * statement travels alone: node-postgres sends the next only after the previous has answered).
 * Every value is a JSON document, a text or a timestamp. Documents are dollar-quoted (taken literally,
 * whatever standard_conforming_strings says, and with no per-character escaping: only a search for
 * a tag the text does not contain) and typed `json` (checked and kept as text, read by
 * json_to_recordset and friends): cheaper to take in than `jsonb`, which builds a tree of the whole
 * document first.
 */
export const sqlLiteral = {
  json: (value: unknown): string => sqlLiteral.jsonText(JSON.stringify(value)),
  /** A document that is already JSON text. */
  jsonText: (text: string): string => `${dollarQuoted(text)}::json`,
  timestamptz: (value: Date): string => `'${value.toISOString()}'::timestamptz`,
  /** A text, dollar-quoted like a document. */
  text: (value: string): string => `${dollarQuoted(value)}::text`,
};

/** `$json$text$json$`, with a tag that neither occurs in the text nor could start before its end. */
export function dollarQuoted(text: string): string {
  let tag = '$json$';
  for (let attempt = 1; `${text}${tag}`.indexOf(tag) !== text.length; attempt++) tag = `$json${attempt}$`;
  return `${tag}${text}${tag}`;
}
