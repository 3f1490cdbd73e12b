import { withinTime } from '@alert-ingestion/async';
import { HealthProbe } from '@alert-ingestion/http';
import { Injectable } from '@nestjs/common';
import { PrismaService } from './prisma.service';

/** `/healthz` (HealthModule): PostgreSQL answers `SELECT 1` through Prisma in time. */
@Injectable()
export class DatabaseHealthProbe implements HealthProbe {
  readonly name = 'postgresql';

  constructor(private readonly prisma: PrismaService) {}

  async ping(timeoutMs = 3_000): Promise<void> {
    await withinTime(this.prisma.$queryRaw`SELECT 1`, timeoutMs, () => {
      throw new Error(`PostgreSQL did not answer within ${timeoutMs} ms`);
    });
  }
}
