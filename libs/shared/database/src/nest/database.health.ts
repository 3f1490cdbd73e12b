import { HealthProbe } from '@alert-ingestion/http';
import { Injectable } from '@nestjs/common';
import { PrismaService } from './prisma.service';

/** `/healthz` (HealthModule, which gives it its time limit): PostgreSQL answers `SELECT 1` through Prisma. */
@Injectable()
export class DatabaseHealthProbe implements HealthProbe {
  readonly name = 'postgresql';

  constructor(private readonly prisma: PrismaService) {}

  async ping(): Promise<void> {
    await this.prisma.$queryRaw`SELECT 1`;
  }
}
