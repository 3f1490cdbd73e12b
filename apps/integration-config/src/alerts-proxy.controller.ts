import { ForwardedProjectRoute } from '@alert-ingestion/access';
import {
  ApiAlertStatusCounts,
  ApiCreateSilence,
  ApiExpireSilence,
  ApiGetAlert,
  ApiGetSilence,
  ApiListAlerts,
  ApiListDeliveries,
  ApiListSilences,
  ApiUpdateAlertStatus,
  ApiUpdateSilence,
  CreateSilenceDto,
  ListAlertsQueryDto,
  ListSilencesQueryDto,
  UpdateAlertStatusDto,
  UpdateSilenceDto,
} from '@alert-ingestion/alerts-api';
import { ConfigService } from '@alert-ingestion/config';
import { AccessLevel, REQUIRED_ACCESS_LEVEL } from '@alert-ingestion/contracts';
import { ApiErrorResponses, DomainError, IdentifiedRequest, NotFoundError, ServiceUnavailableError } from '@alert-ingestion/http';
import { applyDecorators, Controller, Get, Post, Put, Req, Res } from '@nestjs/common';
import { ApiBody, ApiQuery, ApiTags } from '@nestjs/swagger';
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

/**
 * A route forwarded to alert-processor, which checks the token and the role (`level`) itself, and
 * documented (`docs`) as the processor documents it; it can answer, besides its own, that the
 * processor is out of reach or out of time.
 */
const Forwarded = (level: AccessLevel, ...docs: MethodDecorator[]) =>
  applyDecorators(
    ...docs,
    ForwardedProjectRoute(level),
    ApiErrorResponses([502, 'alert-processor gave no usable answer in time.'], [503, 'alert-processor cannot be reached.']),
  );

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
  @Forwarded(REQUIRED_ACCESS_LEVEL.readAlerts, ApiListAlerts(), ApiQuery({ type: ListAlertsQueryDto }))
  listAlerts(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Get('alerts/status_counts')
  @Forwarded(REQUIRED_ACCESS_LEVEL.readAlerts, ApiAlertStatusCounts())
  statusCounts(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Get('alerts/:iid')
  @Forwarded(REQUIRED_ACCESS_LEVEL.readAlerts, ApiGetAlert())
  getAlert(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Put('alerts/:iid')
  @Forwarded(REQUIRED_ACCESS_LEVEL.changeAlertStatus, ApiUpdateAlertStatus(), ApiBody({ type: UpdateAlertStatusDto }))
  updateAlert(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Post('silences')
  @Forwarded(REQUIRED_ACCESS_LEVEL.manageSilences, ApiCreateSilence(), ApiBody({ type: CreateSilenceDto }))
  createSilence(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Get('silences')
  @Forwarded(REQUIRED_ACCESS_LEVEL.readSilences, ApiListSilences(), ApiQuery({ type: ListSilencesQueryDto }))
  listSilences(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Get('silences/:silence_id')
  @Forwarded(REQUIRED_ACCESS_LEVEL.readSilences, ApiGetSilence())
  getSilence(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Put('silences/:silence_id')
  @Forwarded(REQUIRED_ACCESS_LEVEL.manageSilences, ApiUpdateSilence(), ApiBody({ type: UpdateSilenceDto }))
  updateSilence(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Post('silences/:silence_id/expire')
  @Forwarded(REQUIRED_ACCESS_LEVEL.manageSilences, ApiExpireSilence())
  expireSilence(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.forward(request, response);
  }

  @Get('alert_integrations/:iid/deliveries')
  @Forwarded(REQUIRED_ACCESS_LEVEL.manageIntegrations, ApiListDeliveries())
  @ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1, default: 1 } })
  @ApiQuery({ name: 'per_page', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 100 } })
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
