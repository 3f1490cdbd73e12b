import { ApiErrorResponses, ApiPageResponse } from '@alert-ingestion/http';
import { applyDecorators } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { AlertDto, AlertStatusCountsDto, DeliveryDto } from './alerts-responses.dto';
import { SilenceDto } from './silences.dto';

// What the OpenAPI documents say of each route of the alerts query API, the silences and the
// deliveries: alert-processor answers them and integration-config forwards them, and both describe
// them alike. The query and the body are documented where they are read (a handler's @Query() and
// @Body(), or the forwarding route's ApiQuery and ApiBody).

/** A route's summary, with its path parameters and answers. */
const ApiRoute = (summary: string, ...documentation: Array<MethodDecorator & ClassDecorator>) =>
  applyDecorators(ApiOperation({ summary }), ...documentation);

const ApiAlertIid = () => ApiParam({ name: 'iid', description: 'The alert iid (counts from 1 per project).', schema: { type: 'integer', minimum: 1 } });

const ApiSilenceId = () => ApiParam({ name: 'silence_id', description: 'The silence id.', schema: { type: 'integer', minimum: 1 } });

export const ApiListAlerts = () => ApiRoute('List the alerts of a project, newest first', ApiPageResponse(AlertDto, 'One page of alerts.'), ApiErrorResponses(400));

export const ApiAlertStatusCounts = () => ApiRoute('Count the alerts of a project by status', ApiOkResponse({ type: AlertStatusCountsDto }));

export const ApiGetAlert = () => ApiRoute('Get an alert', ApiAlertIid(), ApiOkResponse({ type: AlertDto }));

export const ApiUpdateAlertStatus = () =>
  ApiRoute('Change the status of an alert', ApiAlertIid(), ApiOkResponse({ type: AlertDto, description: 'The alert with its new status.' }), ApiErrorResponses(400));

export const ApiCreateSilence = () =>
  ApiRoute(
    'Create a silence: alerts matching all its matchers while it is active carry silenced_by',
    ApiCreatedResponse({ type: SilenceDto }),
    ApiErrorResponses(400),
  );

export const ApiListSilences = () => ApiRoute('List the silences of a project, newest first', ApiPageResponse(SilenceDto, 'One page of silences.'), ApiErrorResponses(400));

export const ApiGetSilence = () => ApiRoute('Get a silence', ApiSilenceId(), ApiOkResponse({ type: SilenceDto }));

export const ApiUpdateSilence = () =>
  ApiRoute(
    'Change the comment, the end or the matchers of a silence that has not expired',
    ApiSilenceId(),
    ApiOkResponse({ type: SilenceDto }),
    ApiErrorResponses(400, [409, 'The silence has expired.']),
  );

export const ApiExpireSilence = () =>
  ApiRoute(
    'Expire a silence: it ends now and stays listed',
    ApiSilenceId(),
    ApiOkResponse({ type: SilenceDto, description: 'The silence, expired (an expired one is answered as it is).' }),
  );

export const ApiListDeliveries = () =>
  ApiRoute(
    "List the latest deliveries to an integration's URL, newest first",
    ApiParam({ name: 'iid', description: 'The integration id.', schema: { type: 'integer', minimum: 1 } }),
    ApiPageResponse(DeliveryDto, 'One page of deliveries (100 unless per_page says fewer).'),
    ApiErrorResponses(400, [404, 'No such HTTP Endpoint in the project.']),
  );
