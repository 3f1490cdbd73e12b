// Prisma CLI configuration (Prisma 7 reads the datasource URL from here, not from the schema).
// `prisma generate` needs no database; `prisma migrate deploy` uses DATABASE_URL.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: {
    url: process.env['DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/alert_ingestion',
  },
});
