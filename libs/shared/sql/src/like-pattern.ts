/**
 * A `LIKE` pattern that finds `text` anywhere in a value. LIKE treats %, _ and its escape character
 * \ as special; in a search text they mean themselves.
 */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
