import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** One folder of prisma/migrations: `<name>/migration.sql`. */
export interface MigrationFile {
  name: string;
  path: string;
  script: string;
  /** SHA-256 hex of the file, what Prisma stores in _prisma_migrations.checksum. */
  checksum: string;
}

export function migrationChecksum(script: string | Buffer): string {
  return createHash('sha256').update(script).digest('hex');
}

/**
 * Whether a script matches a stored checksum the way Prisma's schema engine decides it: line
 * endings do not matter (git may rewrite them), and checksums written by old engines without
 * zero-padding still match.
 */
export function scriptMatchesChecksum(script: string, checksum: string): boolean {
  const variants = [script, script.replace(/\r\n/g, '\n'), script.replace(/\n/g, '\r\n')];
  return variants.some((variant) => {
    const digest = createHash('sha256').update(variant, 'utf8').digest();
    const padded = digest.toString('hex');
    if (checksum.length === padded.length) return padded === checksum;
    const unpadded = [...digest].map((byte) => byte.toString(16)).join('');
    return unpadded === checksum;
  });
}

/** Every migration folder in `dir`, in name order (the order Prisma applies them). */
export async function readMigrations(dir: string): Promise<MigrationFile[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return Promise.all(
    names.map(async (name) => {
      const path = join(dir, name, 'migration.sql');
      if (!existsSync(path)) throw new Error(`Migration folder ${join(dir, name)} holds no migration.sql`);
      const bytes = await readFile(path);
      return { name, path, script: bytes.toString('utf8'), checksum: migrationChecksum(bytes) };
    }),
  );
}

/**
 * prisma/migrations of the repository (or of the image the service runs in): the nearest
 * `prisma/migrations` folder above `from`. MIGRATIONS_DIR overrides it.
 */
export function findMigrationsDir(from: string = __dirname, env: NodeJS.ProcessEnv = process.env): string {
  const configured = env['MIGRATIONS_DIR'];
  if (configured) return configured;
  let dir = from;
  for (;;) {
    const candidate = join(dir, 'prisma', 'migrations');
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No prisma/migrations folder above ${from} (set MIGRATIONS_DIR)`);
    dir = parent;
  }
}
