import { Body, Controller, Get, HttpCode, HttpStatus, Post, Query } from '@nestjs/common';
import { CHECK_FORMATS, CodeQualityIssue, DEFAULT_CHECKED_PATH, DEPRECATION_AREAS, DeprecationEntry, DeprecationsService, LinkedPipelineFinding, UpgradeReport } from '@alert-ingestion/deprecations';
import { ApiErrorResponses, BadRequestError } from '@alert-ingestion/http';
import { ApiBody, ApiConsumes, ApiExtraModels, ApiOkResponse, ApiOperation, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { PIPELINE_CONFIGURATION_CONTENT_TYPES } from './pipeline-configuration-body-parser';
import { CodeQualityIssueDto, DeprecationEntryDto, PipelineFindingsDto, UpgradeReportDto } from './deprecations.responses';

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

const MILESTONE = { type: 'string', pattern: '^\\d+\\.\\d+$', example: '15.0' } as const;

/**
 * Spec 9.2 to 9.6 as an API (CONTRACT.md, "deprecations"); open to anyone, like the schedule it
 * publishes (no access decorator, so no security in the OpenAPI document). Bad input becomes a 400
 * BadRequestError, which the shared HttpErrorFilter writes as `{error, message}`. The query is read
 * by the catalogue's own parser (unknown parameters are refused): ApiQuery lists what it takes.
 */
@ApiTags('deprecations')
@Controller('api/v4/deprecations')
export class DeprecationsController {
  constructor(private readonly deprecations: DeprecationsService) {}

  @Get()
  @ApiOperation({ summary: 'List the deprecations and removals of the schedule' })
  @ApiQuery({ name: 'removal_milestone', required: false, schema: MILESTONE, description: 'Only entries removed at this milestone.' })
  @ApiQuery({ name: 'breaking', required: false, schema: { type: 'string', enum: ['true', 'false'] } })
  @ApiQuery({ name: 'area', required: false, schema: { type: 'string', enum: [...DEPRECATION_AREAS] } })
  @ApiQuery({ name: 'q', required: false, schema: { type: 'string' }, description: 'Text searched in the entries.' })
  @ApiOkResponse({ type: [DeprecationEntryDto] })
  @ApiErrorResponses(400)
  list(@Query() query: Record<string, unknown>): DeprecationEntry[] {
    return this.deprecations.list(query);
  }

  @Get('upgrade_report')
  @ApiOperation({ summary: 'What is removed or changes after `from` up to and including `to`' })
  @ApiQuery({ name: 'from', required: true, schema: MILESTONE })
  @ApiQuery({ name: 'to', required: true, schema: MILESTONE })
  @ApiOkResponse({ type: UpgradeReportDto })
  @ApiErrorResponses(400)
  upgradeReport(@Query() query: Record<string, unknown>): UpgradeReport {
    return this.deprecations.upgradeReport(query);
  }

  @Post('check')
  @HttpCode(HttpStatus.OK)
  @ApiOperation({ summary: 'Check a pipeline configuration for what a target release removes' })
  @ApiQuery({ name: 'target', required: false, schema: MILESTONE, description: 'Only findings removed by this milestone (default: the end of the schedule).' })
  @ApiQuery({ name: 'format', required: false, schema: { type: 'string', enum: [...CHECK_FORMATS], default: 'json' } })
  @ApiQuery({ name: 'path', required: false, schema: { type: 'string', default: DEFAULT_CHECKED_PATH }, description: 'The file a Code Quality report names.' })
  @ApiConsumes(...PIPELINE_CONFIGURATION_CONTENT_TYPES, 'application/json')
  @ApiExtraModels(PipelineFindingsDto, CodeQualityIssueDto)
  @ApiBody({
    description: 'The pipeline configuration (YAML) as the raw body, or as JSON `{content}`.',
    schema: { oneOf: [{ type: 'string' }, { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] }] },
  })
  @ApiOkResponse({
    description: '`{findings}`, or with `format=codequality` a GitLab Code Quality report.',
    schema: { oneOf: [{ $ref: getSchemaPath(PipelineFindingsDto) }, { type: 'array', items: { $ref: getSchemaPath(CodeQualityIssueDto) } }] },
  })
  @ApiErrorResponses([400, 'Invalid YAML, no configuration, or a bad parameter.'], 413)
  check(@Body() body: unknown, @Query() query: Record<string, unknown>): { findings: LinkedPipelineFinding[] } | CodeQualityIssue[] {
    return this.deprecations.check(pipelineConfigurationOf(body), query);
  }
}
