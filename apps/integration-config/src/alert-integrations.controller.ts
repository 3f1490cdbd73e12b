import { ApiErrorResponses, RequestId } from '@alert-ingestion/http';
import { CurrentProject, PathId, ProjectAccess, ProjectRoute } from '@alert-ingestion/access';
import { AccessLevel, Integration, IntegrationListItem, PayloadAlertField, PreviewAlert, REQUIRED_ACCESS_LEVEL, TestAlertSample } from '@alert-ingestion/contracts';
import {
  CreateIntegrationDto,
  integrationNotFound,
  IntegrationDto,
  IntegrationListItemDto,
  IntegrationsService,
  ParseSamplePayloadDto,
  PayloadAlertFieldsDto,
  payloadText,
  PreviewDto,
  PreviewResultDto,
  ResetAuthorizationKeyDto,
  TestAlertDto,
  TestAlertResult,
  TestAlertResultDto,
  TestAlertSampleDto,
  UpdateIntegrationDto,
} from '@alert-ingestion/integrations-feature';
import { applyDecorators, Body, Controller, Delete, Get, HttpCode, HttpStatus, Post, Put, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';

/** The integration `:iid` of the project; anything that is not an id names no integration (404). */
const IntegrationId = () => PathId('iid', integrationNotFound);

/** A route of one integration: ProjectRoute(level), and 404 also for an id that names no integration of the project. */
const IntegrationRoute = (level: AccessLevel) =>
  applyDecorators(
    ApiParam({ name: 'iid', description: 'The integration id.', schema: { type: 'integer', minimum: 1 } }),
    ApiErrorResponses([404, 'No such integration in the project.']),
    ProjectRoute(level),
  );

/**
 * Alert integrations of a project (CONTRACT.md "Management API"; spec 1.7 and 5.2 for roles:
 * maintainer+ views, creates, edits and configures; developer+ sends a test alert, and so may list
 * the integrations by name, type and status: see REQUIRED_ACCESS_LEVEL.listIntegrations).
 * ProjectRoute documents the token headers and its 401/403/404; each route adds its own answers.
 */
@ApiTags('alert integrations')
@Controller('api/v4/projects/:id/alert_integrations')
export class AlertIntegrationsController {
  constructor(private readonly integrations: IntegrationsService) {}

  @Get()
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.listIntegrations)
  @ApiOperation({
    summary: 'List the alert integrations of a project',
    description:
      'Developer+ (the contract says maintainer+; widened so that a developer can choose the integration to send a test alert to). ' +
      'Each integration as id, name, type and status only: its URL, authorization key, sample payload and mapping need `GET .../alert_integrations/:iid` (maintainer+).',
  })
  @ApiOkResponse({ type: [IntegrationListItemDto] })
  list(@CurrentProject() project: ProjectAccess): Promise<IntegrationListItem[]> {
    return this.integrations.list(project.projectId);
  }

  @Post()
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.manageIntegrations)
  @ApiOperation({ summary: 'Create an alert integration' })
  @ApiCreatedResponse({ type: IntegrationDto, description: 'The integration, with its URL and authorization key.' })
  @ApiErrorResponses(
    400,
    [403, 'The tier does not allow it (a second HTTP Endpoint, a custom mapping or the external link on Free).'],
    [409, 'The name is taken, or an active external link and another active integration would coexist.'],
  )
  create(@CurrentProject() project: ProjectAccess, @Body() body: CreateIntegrationDto): Promise<Integration> {
    return this.integrations.create(project.projectId, { ...body, type: body.type ?? 'http' });
  }

  @Post('parse_sample_payload')
  @HttpCode(HttpStatus.OK)
  @ProjectRoute(REQUIRED_ACCESS_LEVEL.manageIntegrations)
  @ApiOperation({ summary: 'List the fields of a sample payload, for a custom mapping' })
  @ApiOkResponse({ type: PayloadAlertFieldsDto })
  @ApiErrorResponses([400, 'The sample payload is not valid JSON.'], [403, 'Custom mapping needs the Premium tier.'])
  parseSamplePayload(@CurrentProject() project: ProjectAccess, @Body() body: ParseSamplePayloadDto): { payload_alert_fields: PayloadAlertField[] } {
    return this.integrations.parseSamplePayload(project.tier, body.sample_payload);
  }

  @Get(':iid')
  @IntegrationRoute(REQUIRED_ACCESS_LEVEL.manageIntegrations)
  @ApiOperation({ summary: 'Get an alert integration, with its URL and authorization key' })
  @ApiOkResponse({ type: IntegrationDto })
  get(@CurrentProject() project: ProjectAccess, @IntegrationId() iid: bigint): Promise<Integration> {
    return this.integrations.get(project.projectId, iid);
  }

  @Put(':iid')
  @IntegrationRoute(REQUIRED_ACCESS_LEVEL.manageIntegrations)
  @ApiOperation({ summary: 'Change an alert integration' })
  @ApiOkResponse({ type: IntegrationDto })
  @ApiErrorResponses(
    400,
    [403, 'The tier does not allow it (a custom mapping on Free).'],
    [409, 'The name is taken, or an active external link and another active integration would coexist.'],
  )
  update(@CurrentProject() project: ProjectAccess, @IntegrationId() iid: bigint, @Body() body: UpdateIntegrationDto): Promise<Integration> {
    return this.integrations.update(project.projectId, iid, body);
  }

  @Delete(':iid')
  @HttpCode(HttpStatus.NO_CONTENT)
  @IntegrationRoute(REQUIRED_ACCESS_LEVEL.manageIntegrations)
  @ApiOperation({ summary: 'Delete an alert integration' })
  @ApiNoContentResponse({ description: 'Deleted; its URL stops receiving within 2 seconds.' })
  async remove(@CurrentProject() project: ProjectAccess, @IntegrationId() iid: bigint): Promise<void> {
    await this.integrations.delete(project.projectId, iid);
  }

  @Post(':iid/reset_authorization_key')
  @HttpCode(HttpStatus.OK)
  @IntegrationRoute(REQUIRED_ACCESS_LEVEL.manageIntegrations)
  @ApiOperation({ summary: 'Give an alert integration a new authorization key' })
  @ApiOkResponse({
    type: IntegrationDto,
    description:
      'The integration with its new key. The old key stops working at once, or with grace_period_minutes it works until its expires_at in previous_authorization_keys; earlier previous keys keep working until their own expiry.',
  })
  @ApiErrorResponses(400, [409, 'Two previous keys still work and a grace period would need a third (too_many_previous_keys): wait, reset without a grace period, or send revoke_previous_keys.'])
  resetAuthorizationKey(@CurrentProject() project: ProjectAccess, @IntegrationId() iid: bigint, @Body() body: ResetAuthorizationKeyDto): Promise<Integration> {
    return this.integrations.resetAuthorizationKey(project.projectId, iid, body);
  }

  @Post(':iid/reset_signing_secret')
  @HttpCode(HttpStatus.OK)
  @IntegrationRoute(REQUIRED_ACCESS_LEVEL.manageIntegrations)
  @ApiOperation({ summary: 'Give an HTTP Endpoint a new random webhook signing secret' })
  @ApiOkResponse({ type: IntegrationDto, description: 'The integration with its new signing secret; from now on every request must be signed with it.' })
  @ApiErrorResponses([400, 'The external link integration receives no alerts (not_applicable).'])
  resetSigningSecret(@CurrentProject() project: ProjectAccess, @IntegrationId() iid: bigint): Promise<Integration> {
    return this.integrations.resetSigningSecret(project.projectId, iid);
  }

  /**
   * What a developer needs to write a test alert (spec 1.7, 4.2): developer+, like sending one, and
   * without the URL, key or mapping that `GET :iid` (maintainer+) shows.
   */
  @Get(':iid/test_alert')
  @IntegrationRoute(REQUIRED_ACCESS_LEVEL.sendTestAlert)
  @ApiOperation({
    summary: "Get what a test alert is written from: the integration's sample payload",
    description:
      'Developer+ (who may send a test alert). The sample payload to start the test payload from, and whether a custom mapping applies; ' +
      'never the URL, the authorization key or the mapping itself (`GET .../alert_integrations/:iid`, maintainer+).',
  })
  @ApiOkResponse({ type: TestAlertSampleDto })
  @ApiErrorResponses([409, 'The external link receives no alerts.'])
  testAlertSample(@CurrentProject() project: ProjectAccess, @IntegrationId() iid: bigint): Promise<TestAlertSample> {
    return this.integrations.testAlertSample(project, iid);
  }

  /**
   * The test alert's preview: what the payload becomes under the integration's own mapping, the one
   * a test alert goes through. Developer+, so no mapping may be proposed here (trying mappings is
   * configuring the integration: `POST :iid/preview`, maintainer+); the same preview code runs.
   */
  @Post(':iid/test_alert/preview')
  @HttpCode(HttpStatus.OK)
  @IntegrationRoute(REQUIRED_ACCESS_LEVEL.sendTestAlert)
  @ApiOperation({
    summary: "Show what a test payload would become under the integration's own mapping",
    description:
      'Developer+ (who may send a test alert). Stores nothing and sends nothing. Takes the payload only: proposing a mapping is `POST .../:iid/preview` (maintainer+), ' +
      'and a `payload_field_mapping` here is refused (400).',
  })
  @ApiOkResponse({ type: PreviewResultDto })
  @ApiErrorResponses([400, 'The payload is not valid JSON or is no alert, or the body has a field other than payload.'], [409, 'The external link receives no alerts.'])
  testAlertPreview(@CurrentProject() project: ProjectAccess, @IntegrationId() iid: bigint, @Body() body: TestAlertDto): Promise<{ alerts: PreviewAlert[] }> {
    return this.integrations.preview(project, iid, payloadText(body.payload), undefined);
  }

  /** 200 with the alerts created or grouped into; 202 when the gateway accepted it but processing is still under way. */
  @Post(':iid/test_alert')
  @IntegrationRoute(REQUIRED_ACCESS_LEVEL.sendTestAlert)
  @ApiOperation({ summary: "Send a test alert through the integration's URL, as a monitoring tool would" })
  @ApiOkResponse({ type: TestAlertResultDto, description: 'Processed: the alerts created or grouped into.' })
  @ApiAcceptedResponse({ type: TestAlertResultDto, description: 'Accepted by the gateway; processing is still under way.' })
  @ApiErrorResponses(
    [400, 'The test payload is not valid JSON, or the gateway refused it.'],
    [409, 'The external link receives no alerts.'],
    413,
    [422, 'The integration is disabled, or the payload cannot be processed.'],
    [429, "Over the integration's rate limit."],
    [502, 'The gateway answered something unexpected.'],
    [503, 'The gateway did not answer, or Kafka is unavailable.'],
  )
  async testAlert(
    @CurrentProject() project: ProjectAccess,
    @IntegrationId() iid: bigint,
    @Body() body: TestAlertDto,
    @RequestId() requestId: string,
    @Res({ passthrough: true }) response: Response,
  ): Promise<TestAlertResult['body']> {
    const result = await this.integrations.sendTestAlert(project.projectId, iid, payloadText(body.payload), requestId);
    response.status(result.status);
    return result.body;
  }

  /** What the payload would become under the integration's mapping or the proposed one; stores nothing. */
  @Post(':iid/preview')
  @HttpCode(HttpStatus.OK)
  @IntegrationRoute(REQUIRED_ACCESS_LEVEL.manageIntegrations)
  @ApiOperation({ summary: "Show what a payload would become under the integration's mapping or a proposed one" })
  @ApiOkResponse({ type: PreviewResultDto })
  @ApiErrorResponses([400, 'The payload is not valid JSON, or the proposed mapping is invalid.'], [403, 'Custom mapping needs the Premium tier.'], [409, 'The external link receives no alerts.'])
  preview(@CurrentProject() project: ProjectAccess, @IntegrationId() iid: bigint, @Body() body: PreviewDto): Promise<{ alerts: PreviewAlert[] }> {
    return this.integrations.preview(project, iid, payloadText(body.payload), body.payload_field_mapping);
  }
}
