import { SqlQuery } from '@alert-ingestion/sql';

/** A SqlQuery over a Prisma client or one of its interactive transactions. */
export function prismaSqlQuery(client: { $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T> }): SqlQuery {
  return <Row>(text: string, values: readonly unknown[]) => Promise.resolve(client.$queryRawUnsafe<Row[]>(text, ...values));
}
