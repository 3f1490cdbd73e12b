/** An applied migration's migration.sql changed afterwards: the database no longer matches the files. */
export class MigrationChecksumError extends Error {
  constructor(
    readonly migrationName: string,
    readonly appliedChecksum: string,
    readonly fileChecksum: string,
  ) {
    super(
      `Migration ${migrationName} was modified after it was applied: _prisma_migrations has checksum ` +
        `${appliedChecksum}, prisma/migrations/${migrationName}/migration.sql has ${fileChecksum}. ` +
        'Applied migrations are immutable: restore the file and put the change in a new migration.',
    );
    this.name = 'MigrationChecksumError';
  }
}

/** _prisma_migrations records a migration that started and neither finished nor was rolled back. */
export class UnfinishedMigrationError extends Error {
  constructor(readonly migrationName: string) {
    super(
      `Migration ${migrationName} is recorded as started but not finished (a failed \`prisma migrate deploy\`?). ` +
        `Repair the database, then run \`prisma migrate resolve --rolled-back ${migrationName}\` (or --applied).`,
    );
    this.name = 'UnfinishedMigrationError';
  }
}

/** A migration's SQL failed; its transaction was rolled back, so nothing of it was applied. */
export class MigrationFailedError extends Error {
  constructor(
    readonly migrationName: string,
    cause: unknown,
  ) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(`Migration ${migrationName} failed and was rolled back: ${detail}`, { cause });
    this.name = 'MigrationFailedError';
  }
}

/** Another process held the migration lock for longer than we were willing to wait. */
export class MigrationLockTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`Could not take the migration lock (pg_advisory_lock 72707369) within ${timeoutMs} ms: another migration is running`);
    this.name = 'MigrationLockTimeoutError';
  }
}
