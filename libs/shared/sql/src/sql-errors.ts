/**
 * PostgreSQL's error code (SQLSTATE, five characters) of a failed statement, as node-postgres
 * reports it; undefined for an error without one (a broken connection: `ECONNREFUSED`).
 */
export function sqlState(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

/**
 * Whether an error is PostgreSQL's unique violation (SQLSTATE 23505), as node-postgres reports it
 * or as Prisma does (P2002), optionally of the given constraint or unique index: node-postgres names
 * it in `constraint`, Prisma in its metadata or message.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, meta, message, constraint: violated } = error as { code?: unknown; meta?: unknown; message?: unknown; constraint?: unknown };
  if (code !== 'P2002' && code !== '23505') return false;
  if (constraint === undefined || violated === constraint) return true;
  return `${JSON.stringify(meta ?? {})}${String(message ?? '')}`.includes(constraint);
}
