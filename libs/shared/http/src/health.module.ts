import { withinTime } from '@alert-ingestion/async';
import { Controller, DynamicModule, Get, HttpException, Inject, Module, ModuleMetadata, Res, Type } from '@nestjs/common';
import { HealthCheckService, HealthIndicatorResult, HealthIndicatorService, TerminusModule } from '@nestjs/terminus';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags, SchemaObject } from '@nestjs/swagger';
import type { Response } from 'express';

/** What a probe reports about its dependency besides up or down (shown under its name in `/healthz`). */
export type HealthDetails = Record<string, unknown>;

/**
 * A dependency `/healthz` checks. `ping` resolves when the dependency is fine (optionally with
 * details) and throws when not: the error's message is the reason, and a HealthProbeDownError also
 * carries details.
 */
export interface HealthProbe {
  readonly name: string;
  ping(): Promise<void | HealthDetails>;
}

/** A probe's "down", with details next to the reason. */
export class HealthProbeDownError extends Error {
  constructor(
    message: string,
    readonly details: HealthDetails,
  ) {
    super(message);
    this.name = 'HealthProbeDownError';
  }
}

export const HEALTH_PROBES = Symbol('HEALTH_PROBES');
const HEALTH_PROBE_TIMEOUT_MS = Symbol('HEALTH_PROBE_TIMEOUT_MS');

/** Each dependency by name: `{status: "up"|"down", reason?, ...details}`. */
const HEALTH_DETAILS: SchemaObject = { type: 'object', additionalProperties: { type: 'object', properties: { status: { type: 'string', enum: ['up', 'down'] } } } };

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly indicators: HealthIndicatorService,
    @Inject(HEALTH_PROBES) private readonly probes: HealthProbe[],
    @Inject(HEALTH_PROBE_TIMEOUT_MS) private readonly timeoutMs: number,
  ) {}

  /** 200 only when every dependency (PostgreSQL, Kafka) answers (CONTRACT.md); otherwise 503 naming what is down. */
  @Get('healthz')
  @ApiOperation({ summary: 'Whether the service and its dependencies (PostgreSQL, Kafka) are up' })
  @ApiOkResponse({ schema: { type: 'object', properties: { status: { type: 'string', enum: ['ok'] }, details: HEALTH_DETAILS } } })
  @ApiServiceUnavailableResponse({
    description: 'A dependency is down; `message` names it.',
    schema: { type: 'object', properties: { error: { type: 'string', enum: ['unhealthy'] }, message: { type: 'string' }, details: HEALTH_DETAILS } },
  })
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
      // A dependency that does not answer in time is down: /healthz itself never hangs.
      const answer = await withinTime(probe.ping(), this.timeoutMs, () => {
        throw new Error(`${probe.name} did not answer within ${this.timeoutMs} ms`);
      });
      return indicator.up(answer ?? undefined);
    } catch (error) {
      const details = error instanceof HealthProbeDownError ? error.details : {};
      return indicator.down({ ...details, reason: error instanceof Error ? error.message : String(error) });
    }
  }
}

export interface HealthModuleOptions {
  /** Modules that provide the probes' own dependencies. */
  imports?: ModuleMetadata['imports'];
  probes: Type<HealthProbe>[];
  /** How long each probe may take before it counts as down. Default 3 s. */
  probeTimeoutMs?: number;
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
        { provide: HEALTH_PROBE_TIMEOUT_MS, useValue: options.probeTimeoutMs ?? 3_000 },
      ],
    };
  }
}
