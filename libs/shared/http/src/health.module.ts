import { Controller, DynamicModule, Get, HttpException, Inject, Module, ModuleMetadata, Res, Type } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorResult, HealthIndicatorService, TerminusModule } from '@nestjs/terminus';
import type { Response } from 'express';

/** A dependency `/healthz` checks. `ping` resolves when the dependency answers and throws (with the reason) when not. */
export interface HealthProbe {
  readonly name: string;
  ping(): Promise<void>;
}

export const HEALTH_PROBES = Symbol('HEALTH_PROBES');

@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @Inject(HEALTH_PROBES) private readonly probes: HealthProbe[],
  ) {}

  /** 200 only when every dependency (PostgreSQL, Kafka) answers (CONTRACT.md); otherwise 503 naming what is down. */
  @Get('healthz')
  async check(@Res() response: Response): Promise<void> {
    const checks = this.probes.map((probe) => () => this.probe(probe));
    // terminus resolves with the result when every check is up and throws an HttpException whose
    // response carries the same result when one is down.
    const result: unknown = await this.health.check(checks).catch((error: unknown) => {
      if (error instanceof HttpException) return error.getResponse();
      throw error;
    });
    const details = (result as { details?: Record<string, { status: string; reason?: string }> }).details ?? {};
    const down = Object.entries(details).filter(([, detail]) => detail.status !== 'up');
    if (down.length === 0) {
      response.status(200).json({ status: 'ok', details });
      return;
    }
    response.status(503).json({
      error: 'unhealthy',
      message: down.map(([name, detail]) => `${name}: ${detail.reason ?? 'down'}`).join('; '),
      details,
    });
  }

  private async probe(probe: HealthProbe): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check(probe.name);
    try {
      await probe.ping();
      return indicator.up();
    } catch (error) {
      return indicator.down({ reason: error instanceof Error ? error.message : String(error) });
    }
  }
}

export interface HealthModuleOptions {
  /** Modules that provide the probes' own dependencies. */
  imports?: ModuleMetadata['imports'];
  probes: Type<HealthProbe>[];
}

@Module({})
export class HealthModule {
  static forRoot(options: HealthModuleOptions): DynamicModule {
    return {
      module: HealthModule,
      imports: [TerminusModule.forRoot({ logger: false }), ...(options.imports ?? [])],
      controllers: [HealthController],
      providers: [
        ...options.probes,
        { provide: HEALTH_PROBES, useFactory: (...probes: HealthProbe[]) => probes, inject: options.probes },
      ],
    };
  }
}
