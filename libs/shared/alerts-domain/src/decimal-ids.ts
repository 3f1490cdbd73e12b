/** Orders decimal id strings (bigint ids as text) numerically: the order PostgreSQL sorts and locks them in. */
export function compareIds(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}
