import { HealthProbe } from '@alert-ingestion/http';
import { Injectable } from '@nestjs/common';
import { firstValueFrom, from, throwError, timeout } from 'rxjs';
import { PrismaService } from './prisma.service';

/** `/healthz` (HealthModule): PostgreSQL answers `SELECT 1` through Prisma in time. */
@Injectable()
export class DatabaseHealthProbe implements HealthProbe {
  readonly name = 'postgresql';

  constructor(private readonly prisma: PrismaService) {}

  async ping(timeoutMs = 3_000): Promise<void> {
    const answered = from(this.prisma.$queryRaw`SELECT 1`).pipe(
      timeout({ first: timeoutMs, with: () => throwError(() => new Error(`PostgreSQL did not answer within ${timeoutMs} ms`)) }),
    );
    await firstValueFrom(answered);
  }
}
