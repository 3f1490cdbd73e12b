import { ForwardedProjectRoute } from '@alert-ingestion/access';
import {
  AlertDto,
  AlertStatusCountsDto,
  CreateSilenceDto,
  DeliveryDto,
  ListAlertsQueryDto,
  ListSilencesQueryDto,
  SilenceDto,
  UpdateAlertStatusDto,
  UpdateSilenceDto,
} from '@alert-ingestion/alerts-api';
import { ConfigService } from '@alert-ingestion/config';
import { REQUIRED_ACCESS_LEVEL } from '@alert-ingestion/contracts';
import { ApiErrorResponses, ApiPageResponse, DomainError, IdentifiedRequest, NotFoundError, ServiceUnavailableError } from '@alert-ingestion/http';
import { Controller, Get, Post, Put, Req, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { IntegrationConfigEnv } from './integration-config.env';

/** Request headers the alerts API reads: the token (either form), the request id, the body's type. */
const FORWARDED_REQUEST_HEADERS = ['authorization', 'private-token', 'x-request-id', 'content-type', 'accept'];
/** Response headers passed back: the body's type, the request id, GitLab's paging headers, Retry-After. */
const FORWARDED_RESPONSE_HEADERS = [
  'content-type',
  'x-request-id',
  'x-total',
  'x-total-pages',
  'x-page',
  'x-per-page',
  'x-next-page',
  'x-prev-page',
  'link',
  'retry-after',
];
/**
 * The only paths forwarded, checked after dot segments are resolved (so `alerts/../../users` is
 * not): the alerts API, the silences and the deliveries of an integration, all answered by alert-processor.
 */
const FORWARDED_PATHS = [
  /^\/api\/v4\/projects\/[^/]+\/alerts(\/[^/]+)*\/?$/,
  /^\/api\/v4\/projects\/[^/]+\/silences(\/[^/]+(\/expire)?)?\/?$/,
  /^\/api\/v4\/projects\/[^/]+\/alert_integrations\/[^/]+\/deliveries\/?$/,
];
const TIMEOUT_MS = 15_000;
/** Failures to reach the processor at all (nothing was sent): 503, worth a retry. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET']);

const ApiSilenceId = () => ApiParam({ name: 'silence_id', description: 'The silence id.', schema: { type: 'integer', minimum: 1 } });

const ApiAlertIid = () => ApiParam({ name: 'iid', description: 'The alert iid (counts from 1 per project).', schema: { type: 'integer', minimum: 1 } });

/** What every forwarded route can answer besides its own: the processor out of reach or out of time. */
const ApiForwarded = () => ApiErrorResponses([502, 'alert-processor gave no usable answer in time.'], [503, 'alert-processor cannot be reached.']);

/** The list query, documented from the processor's own DTO (the processor validates it). */
const ApiListAlertsQuery = () => ApiQuery({ type: ListAlertsQueryDto });

/**
 * The alerts query API and the deliveries live on alert-processor; the console reaches them here, on
 * its own origin (README "Console and alerts proxy"). Only GET and PUT of the alerts routes, the
 * silences routes, and GET of `.../alert_integrations/:iid/deliveries`, are forwarded; authorisation
 * stays the processor's.
 * Each route is its own handler so that this service's OpenAPI document describes it as the
 * processor's does (ForwardedProjectRoute: the token headers and 401/403/404, checked there).
 */
@ApiTags('alerts (forwarded to alert-processor)')
@Controller('api/v4/projects/:id')
export class AlertsProxyController {
  private readonly processorUrl: string;

  constructor(config: ConfigService<IntegrationConfigEnv>) {
    this.processorUrl = config.get('ALERT_PROCESSOR_URL').replace(/\/+$/, '');
  }

  @Get('alerts')
  @ForwardedProjectRoute(REQUIRED_ACCESS_LEVEL.readAlerts)
  @ApiOperation({ summary: 'List the alerts of a project, newest first' })
  @ApiListAlertsQuery()
  @ApiPageResponse(AlertDto, 'One page of alerts.')
  @ApiErrorResponses(400)
  @ApiForwarded()
  listAlerts(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Get('alerts/status_counts')
  @ForwardedProjectRoute(REQUIRED_ACCESS_LEVEL.readAlerts)
  @ApiOperation({ summary: 'Count the alerts of a project by status' })
  @ApiOkResponse({ type: AlertStatusCountsDto })
  @ApiForwarded()
  statusCounts(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Get('alerts/:iid')
  @ForwardedProjectRoute(REQUIRED_ACCESS_LEVEL.readAlerts)
  @ApiOperation({ summary: 'Get an alert' })
  @ApiAlertIid()
  @ApiOkResponse({ type: AlertDto })
  @ApiForwarded()
  getAlert(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Put('alerts/:iid')
  @ForwardedProjectRoute(REQUIRED_ACCESS_LEVEL.changeAlertStatus)
  @ApiOperation({ summary: 'Change the status of an alert' })
  @ApiAlertIid()
  @ApiBody({ type: UpdateAlertStatusDto })
  @ApiOkResponse({ type: AlertDto, description: 'The alert with its new status.' })
  @ApiErrorResponses(400)
  @ApiForwarded()
  updateAlert(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Post('silences')
  @ForwardedProjectRoute(REQUIRED_ACCESS_LEVEL.manageSilences)
  @ApiOperation({ summary: 'Create a silence: alerts matching all its matchers while it is active carry silenced_by' })
  @ApiBody({ type: CreateSilenceDto })
  @ApiCreatedResponse({ type: SilenceDto })
  @ApiErrorResponses(400)
  @ApiForwarded()
  createSilence(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Get('silences')
  @ForwardedProjectRoute(REQUIRED_ACCESS_LEVEL.readSilences)
  @ApiOperation({ summary: 'List the silences of a project, newest first' })
  @ApiQuery({ type: ListSilencesQueryDto })
  @ApiPageResponse(SilenceDto, 'One page of silences.')
  @ApiErrorResponses(400)
  @ApiForwarded()
  listSilences(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Get('silences/:silence_id')
  @ForwardedProjectRoute(REQUIRED_ACCESS_LEVEL.readSilences)
  @ApiOperation({ summary: 'Get a silence' })
  @ApiSilenceId()
  @ApiOkResponse({ type: SilenceDto })
  @ApiForwarded()
  getSilence(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Put('silences/:silence_id')
  @ForwardedProjectRoute(REQUIRED_ACCESS_LEVEL.manageSilences)
  @ApiOperation({ summary: 'Change the comment, the end or the matchers of a silence that has not expired' })
  @ApiSilenceId()
  @ApiBody({ type: UpdateSilenceDto })
  @ApiOkResponse({ type: SilenceDto })
  @ApiErrorResponses(400, [409, 'The silence has expired.'])
  @ApiForwarded()
  updateSilence(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Post('silences/:silence_id/expire')
  @ForwardedProjectRoute(REQUIRED_ACCESS_LEVEL.manageSilences)
  @ApiOperation({ summary: 'Expire a silence: it ends now and stays listed' })
  @ApiSilenceId()
  @ApiOkResponse({ type: SilenceDto, description: 'The silence, expired (an expired one is answered as it is).' })
  @ApiForwarded()
  expireSilence(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Get('alert_integrations/:iid/deliveries')
  @ForwardedProjectRoute(REQUIRED_ACCESS_LEVEL.manageIntegrations)
  @ApiOperation({ summary: "List the latest deliveries to an integration's URL, newest first" })
  @ApiParam({ name: 'iid', description: 'The integration id.', schema: { type: 'integer', minimum: 1 } })
  @ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1, default: 1 } })
  @ApiQuery({ name: 'per_page', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 100 } })
  @ApiPageResponse(DeliveryDto, 'One page of deliveries (100 unless per_page says fewer).')
  @ApiErrorResponses(400, [404, 'No such HTTP Endpoint in the project.'])
  @ApiForwarded()
  deliveries(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  private async forward(request: Request, response: Response): Promise<void> {
    const { pathname, search } = new URL(request.originalUrl, 'http://proxy.invalid');
    if (!FORWARDED_PATHS.some((path) => path.test(pathname))) throw new NotFoundError(`Cannot ${request.method} ${pathname}`);

    const headers = new Headers();
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    // The id this request is known by here (the caller's when usable, else the one made for it).
    headers.set('x-request-id', (request as unknown as IdentifiedRequest).id);
    // The JSON body parser has read a PUT's or POST's body already; it is sent on as JSON.
    const body = (request.method === 'PUT' || request.method === 'POST') && request.body !== undefined ? JSON.stringify(request.body) : undefined;

    let upstream: globalThis.Response;
    let content: Buffer;
    try {
      upstream = await fetch(`${this.processorUrl}${pathname}${search}`, {
        method: request.method,
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      content = Buffer.from(await upstream.arrayBuffer());
    } catch (error) {
      throw processorError(error);
    }
    for (const name of FORWARDED_RESPONSE_HEADERS) {
      const value = upstream.headers.get(name);
      if (value !== null) response.setHeader(name, value);
    }
    response.status(upstream.status).send(content);
  }
}

function processorError(error: unknown): DomainError {
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  if (typeof code === 'string' && UNREACHABLE.has(code)) {
    return new ServiceUnavailableError(`The alerts API (alert-processor) cannot be reached (${code}).`, 5, 'alert_processor_unavailable');
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    return new DomainError(502, 'alert_processor_timeout', `The alerts API (alert-processor) did not answer within ${TIMEOUT_MS / 1000} s.`);
  }
  return new DomainError(502, 'bad_gateway', 'The alerts API (alert-processor) gave no usable answer.');
}
