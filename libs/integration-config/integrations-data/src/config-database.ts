import { Prisma, PrismaService } from '@alert-ingestion/database';

declare const configTransaction: unique symbol;

/**
 * An open transaction of integration-config's database. Services pass it from one repository call
 * to the next so that the calls commit together; only the repositories query it.
 */
export interface ConfigTransaction {
  readonly [configTransaction]: true;
}

/** How long a transaction may wait for a connection and run (Prisma's interactive transactions). */
export interface ConfigTransactionOptions {
  maxWait?: number;
  timeout?: number;
}

/**
 * integration-config's PostgreSQL access: Prisma for row writes and reads, raw SQL where Prisma has
 * no words for it (row locks, the outbox, set-based reads). The repositories of this library share it.
 */
export class ConfigDatabase {
  constructor(private readonly prisma: PrismaService) {}

  /** Runs `work` in one transaction: it commits when `work` resolves and rolls back when it throws. */
  transaction<T>(work: (tx: ConfigTransaction) => Promise<T>, options?: ConfigTransactionOptions): Promise<T> {
    return this.prisma.$transaction((tx) => work(tx as unknown as ConfigTransaction), options);
  }

  /** The client a repository call runs on: the given transaction, or the pool outside one. */
  client(tx?: ConfigTransaction): Prisma.TransactionClient {
    return tx === undefined ? this.prisma : (tx as unknown as Prisma.TransactionClient);
  }
}

