/**
 * Runs one SQL statement with positional parameters ($1, $2, ...) and returns its rows. Code that
 * several services share takes one of these instead of a connection, so each service passes its own
 * client: integration-config's Prisma client (or one of its transactions), the processor's pg pool.
 */
export type SqlQuery = <Row>(text: string, values: readonly unknown[]) => Promise<Row[]>;
