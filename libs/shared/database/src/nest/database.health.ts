import { HealthProbe } from '@alert-ingestion/http';
import { Injectable } from '@nestjs/common';
import { PrismaService } from './prisma.service';

/** `/healthz` (HealthModule): PostgreSQL answers `SELECT 1` through Prisma in time. */
@Injectable()
export class DatabaseHealthProbe implements HealthProbe {
  readonly name = 'postgresql';

  constructor(private readonly prisma: PrismaService) {}

  async ping(timeoutMs = 3_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.prisma.$queryRaw`SELECT 1`,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`PostgreSQL did not answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
