/** How DatabaseModule connects. */
export interface DatabaseOptions {
  databaseUrl: string;
  /** Apply prisma/migrations before connecting (service start-up). Default false. */
  applyMigrations?: boolean;
  /** Folder of migrations when applyMigrations is set. Default: findMigrationsDir(). */
  migrationsDir?: string;
  /** Size of the pg pool behind Prisma. Default 10 (pg's default). */
  poolSize?: number;
}

export const DATABASE_OPTIONS = Symbol('DATABASE_OPTIONS');
/** Resolves once migrations are applied (or immediately when the module does not apply them). */
export const DATABASE_MIGRATED = Symbol('DATABASE_MIGRATED');
