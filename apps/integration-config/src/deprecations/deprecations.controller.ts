import { Body, Controller, Get, HttpCode, HttpStatus, Post, Query } from '@nestjs/common';
import { DeprecationEntry, DeprecationsService, PipelineFinding, UpgradeReport } from '@alert-ingestion/deprecations';
import { BadRequestError } from '@alert-ingestion/http';

const CHECK_BODY_HELP = 'send the pipeline configuration as the raw body (Content-Type: text/yaml) or as JSON {"content": "<yaml>"}';

/** The pipeline configuration from the raw text body, or from JSON {content}. */
function pipelineConfigurationOf(body: unknown): string {
  if (typeof body === 'string' && body.length > 0) return body;
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const extra = Object.keys(body).filter((key) => key !== 'content');
    if (extra.length > 0) throw new BadRequestError('invalid_request', `unknown field ${extra.join(', ')}: ${CHECK_BODY_HELP}`);
    const { content } = body as { content?: unknown };
    if (typeof content === 'string') return content;
  }
  throw new BadRequestError('invalid_request', `no pipeline configuration: ${CHECK_BODY_HELP}`);
}

/**
 * Spec 9.2 to 9.6 as an API (CONTRACT.md, "deprecations"); open to anyone, like the schedule it
 * publishes. Bad input becomes a 400 BadRequestError, which the shared HttpErrorFilter writes as `{error, message}`.
 */
@Controller('api/v4/deprecations')
export class DeprecationsController {
  constructor(private readonly deprecations: DeprecationsService) {}

  @Get()
  list(@Query() query: Record<string, unknown>): DeprecationEntry[] {
    return this.deprecations.list(query);
  }

  @Get('upgrade_report')
  upgradeReport(@Query() query: Record<string, unknown>): UpgradeReport {
    return this.deprecations.upgradeReport(query);
  }

  @Post('check')
  @HttpCode(HttpStatus.OK)
  check(@Body() body: unknown, @Query() query: Record<string, unknown>): { findings: PipelineFinding[] } {
    return { findings: this.deprecations.check(pipelineConfigurationOf(body), query) };
  }
}
