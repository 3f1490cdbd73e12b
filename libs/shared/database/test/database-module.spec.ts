import { createTestDatabase, TestDatabase } from '@alert-ingestion/testing';
import { Test, TestingModule } from '@nestjs/testing';
import { resolve } from 'node:path';
import { DatabaseHealthProbe, DatabaseModule, PrismaService, withClient } from '../src';

const MIGRATIONS = resolve(__dirname, '..', '..', '..', '..', 'prisma', 'migrations');

async function start(options: Parameters<typeof DatabaseModule.forRoot>[0]): Promise<TestingModule> {
  const moduleRef = await Test.createTestingModule({ imports: [DatabaseModule.forRoot(options)], providers: [DatabaseHealthProbe] }).compile();
  moduleRef.useLogger(false);
  await moduleRef.init();
  return moduleRef;
}

describe('DatabaseModule, PrismaService and the health probe (real PostgreSQL)', () => {
  const databases: TestDatabase[] = [];

  afterAll(async () => {
    await Promise.all(databases.map((database) => database.drop()));
  });

  it('connects on init and reads and writes through the generated client', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const moduleRef = await start(database.url);
    try {
      const prisma = moduleRef.get(PrismaService);
      const user = await prisma.user.create({ data: { username: 'ada' } });
      expect(typeof user.id).toBe('bigint');
      await expect(prisma.user.findUniqueOrThrow({ where: { username: 'ada' } })).resolves.toMatchObject({ id: user.id, username: 'ada' });
      await expect(moduleRef.get(DatabaseHealthProbe).ping()).resolves.toBeUndefined();
    } finally {
      await moduleRef.close();
    }
  });

  it('disconnects on close: its sessions leave the server', async () => {
    const database = await createTestDatabase();
    databases.push(database);
    const sessions = () =>
      withClient(database.url, async (client) => {
        const result = await client.query<{ count: string }>('SELECT count(*) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database.name]);
        return Number(result.rows[0]?.count);
      });
    const moduleRef = await start(database.url);
    expect(await sessions()).toBeGreaterThan(0);

    await moduleRef.close();

    const deadline = Date.now() + 5_000;
    while ((await sessions()) > 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 50));
    expect(await sessions()).toBe(0);
  });

  it('fails start-up when the database does not answer', async () => {
    // Port 1: nothing listens there, so the connection is refused at once.
    const url = 'postgresql://postgres@127.0.0.1:1/nowhere';
    await expect(start(url)).rejects.toThrow();
  });

  it('applies migrations before connecting when asked to (service start-up)', async () => {
    const database = await createTestDatabase({ migrated: false });
    databases.push(database);
    const moduleRef = await start({ databaseUrl: database.url, applyMigrations: true, migrationsDir: MIGRATIONS });
    try {
      await expect(moduleRef.get(PrismaService).alert.count()).resolves.toBe(0);
    } finally {
      await moduleRef.close();
    }
  });

  it('reports down when the database goes away while running', async () => {
    const database = await createTestDatabase();
    const moduleRef = await start(database.url);
    try {
      await database.drop();
      await expect(moduleRef.get(DatabaseHealthProbe).ping()).rejects.toThrow();
    } finally {
      await moduleRef.close();
    }
  });
});
