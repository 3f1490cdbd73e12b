import { CurrentPrincipal, CurrentProject, PathId, Principal, ProjectAccess } from '@alert-ingestion/access';
import {
  AlertEscalationDto,
  ALERTS_API,
  ALERTS_API_BASE,
  AlertsApiRoute,
  ContactMethodDto,
  CreateContactMethodDto,
  CreateNotificationRuleDto,
  EscalationPolicyDto,
  NotificationRuleDto,
  ONCALL_CONFIG_YAML_TYPES,
  OncallConfigQueryDto,
  OncallConfigResultDto,
  PagingSettingsDto,
  ResetWebhookSecretDto,
  TestPageDto,
  UpdateEscalationPolicyDto,
  UpdatePagingSettingsDto,
  USER_API_BASE,
  WebhookSecretDto,
} from '@alert-ingestion/alerts-api';
import { refusalError } from '@alert-ingestion/alerts-feature';
import { contactMethodNotFound, notificationRuleNotFound, ONCALL_CONFIG_SCHEMA } from '@alert-ingestion/escalation-domain';
import { InvalidDocumentError } from '@alert-ingestion/http';
import { AlertEscalationService, EscalationPoliciesService, OncallConfigService, PagingService } from '@alert-ingestion/escalation-feature';
import { Body, Controller, Headers, Param, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import YAML from 'yaml';
import { ApiTags } from '@nestjs/swagger';

/** `:contact_method_id`, `:notification_rule_id`: anything that is not an id names none (404). */
const ContactMethodId = () => PathId('contact_method_id', (text) => refusalError(contactMethodNotFound(text)));
const NotificationRuleId = () => PathId('notification_rule_id', (text) => refusalError(notificationRuleNotFound(text)));

const projectOf = (project: ProjectAccess) => project.projectId.toString();

/**
 * A project's escalation policy and an alert's escalation (docs/api-guide.md "Escalation policies"):
 * maintainers see and set the policy, developers see an alert's escalation (ALERTS_API).
 */
@ApiTags('escalation')
@Controller(ALERTS_API_BASE)
export class EscalationPolicyController {
  constructor(
    private readonly policies: EscalationPoliciesService,
    private readonly escalations: AlertEscalationService,
  ) {}

  @AlertsApiRoute(ALERTS_API.getEscalationPolicy)
  get(@CurrentProject() project: ProjectAccess): Promise<EscalationPolicyDto> {
    return this.policies.get(projectOf(project));
  }

  @AlertsApiRoute(ALERTS_API.updateEscalationPolicy)
  put(@CurrentProject() project: ProjectAccess, @Body() body: UpdateEscalationPolicyDto): Promise<EscalationPolicyDto> {
    return this.policies.put(projectOf(project), body);
  }

  @AlertsApiRoute(ALERTS_API.previewEscalationPolicy)
  preview(@CurrentProject() project: ProjectAccess, @Body() body: UpdateEscalationPolicyDto): Promise<EscalationPolicyDto> {
    return this.policies.preview(projectOf(project), body);
  }

  @AlertsApiRoute(ALERTS_API.deleteEscalationPolicy)
  remove(@CurrentProject() project: ProjectAccess): Promise<void> {
    return this.policies.remove(projectOf(project));
  }

  @AlertsApiRoute(ALERTS_API.resetEscalationWebhookSecret)
  resetSecret(@CurrentProject() project: ProjectAccess, @Body() body: ResetWebhookSecretDto): Promise<WebhookSecretDto> {
    return this.policies.resetSecret(projectOf(project), body.url);
  }

  @AlertsApiRoute(ALERTS_API.alertEscalation)
  alertEscalation(@CurrentProject() project: ProjectAccess, @Param('iid') iid: string): Promise<AlertEscalationDto> {
    return this.escalations.view(projectOf(project), iid);
  }
}

/** The caller's own contact methods, notification rules and paging settings (docs/api-guide.md "Paging"): any user, for themselves. */
@ApiTags('paging')
@Controller(USER_API_BASE)
export class UserPagingController {
  constructor(private readonly paging: PagingService) {}

  @AlertsApiRoute(ALERTS_API.listContactMethods)
  methods(@CurrentPrincipal() principal: Principal): Promise<ContactMethodDto[]> {
    return this.paging.methods(principal);
  }

  @AlertsApiRoute(ALERTS_API.createContactMethod)
  createMethod(@CurrentPrincipal() principal: Principal, @Body() body: CreateContactMethodDto): Promise<ContactMethodDto> {
    return this.paging.createMethod(principal, body);
  }

  @AlertsApiRoute(ALERTS_API.deleteContactMethod)
  deleteMethod(@CurrentPrincipal() principal: Principal, @ContactMethodId() methodId: bigint): Promise<void> {
    return this.paging.deleteMethod(principal, methodId.toString());
  }

  @AlertsApiRoute(ALERTS_API.testContactMethod)
  test(@CurrentPrincipal() principal: Principal, @ContactMethodId() methodId: bigint): Promise<TestPageDto> {
    return this.paging.testPage(principal, methodId.toString());
  }

  @AlertsApiRoute(ALERTS_API.listNotificationRules)
  rules(@CurrentPrincipal() principal: Principal): Promise<NotificationRuleDto[]> {
    return this.paging.rules(principal);
  }

  @AlertsApiRoute(ALERTS_API.createNotificationRule)
  createRule(@CurrentPrincipal() principal: Principal, @Body() body: CreateNotificationRuleDto): Promise<NotificationRuleDto> {
    return this.paging.createRule(principal, body);
  }

  @AlertsApiRoute(ALERTS_API.deleteNotificationRule)
  deleteRule(@CurrentPrincipal() principal: Principal, @NotificationRuleId() ruleId: bigint): Promise<void> {
    return this.paging.deleteRule(principal, ruleId.toString());
  }

  @AlertsApiRoute(ALERTS_API.getPagingSettings)
  settings(@CurrentPrincipal() principal: Principal): Promise<PagingSettingsDto> {
    return this.paging.settings(principal);
  }

  @AlertsApiRoute(ALERTS_API.updatePagingSettings)
  updateSettings(@CurrentPrincipal() principal: Principal, @Body() body: UpdatePagingSettingsDto): Promise<PagingSettingsDto> {
    return this.paging.updateSettings(principal, body);
  }
}

/**
 * A project's whole on-call setup as one document (docs/api-guide.md "On-call setup as code"): JSON,
 * or YAML (`Accept` / `Content-Type: text/yaml`), with its version as ETag and `If-Match` on PUT.
 */
@ApiTags('oncall_config')
@Controller(ALERTS_API_BASE)
export class OncallConfigController {
  constructor(private readonly config: OncallConfigService) {}

  /** Declared before `oncall_config` routes that could take the path. */
  @AlertsApiRoute(ALERTS_API.oncallConfigSchema)
  schema(): string {
    return JSON.stringify(ONCALL_CONFIG_SCHEMA, null, 2);
  }

  @AlertsApiRoute(ALERTS_API.getOncallConfig)
  async get(@CurrentProject() project: ProjectAccess, @Headers('accept') accept: string | undefined, @Res({ passthrough: true }) response: Response): Promise<unknown> {
    const { document, etag } = await this.config.document(projectOf(project));
    response.set('ETag', etag);
    if (!wantsYaml(accept)) return document;
    response.type('text/yaml');
    return YAML.stringify(document);
  }

  @AlertsApiRoute(ALERTS_API.putOncallConfig)
  async put(
    @CurrentProject() project: ProjectAccess,
    @Query() query: OncallConfigQueryDto,
    @Body() body: unknown,
    @Headers('if-match') ifMatch: string | undefined,
    @Res({ passthrough: true }) response: Response,
  ): Promise<OncallConfigResultDto> {
    const result = await this.config.put(projectOf(project), documentOf(body), { dryRun: query.dry_run === 'true', ifMatch });
    response.set('ETag', result.etag);
    return result;
  }
}

/** Whether the caller asks for YAML (and not JSON first). */
function wantsYaml(accept: string | undefined): boolean {
  const types = (accept ?? '').split(',').map((part) => part.split(';')[0].trim().toLowerCase());
  const yaml = types.findIndex((type) => (ONCALL_CONFIG_YAML_TYPES as readonly string[]).includes(type));
  const json = types.indexOf('application/json');
  return yaml !== -1 && (json === -1 || yaml < json);
}

/** The document a PUT holds: JSON as parsed, or YAML text parsed (a YAML error is the document's first problem). */
function documentOf(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return YAML.parse(body) as unknown;
  } catch (error) {
    throw new InvalidDocumentError('The document is not valid YAML: nothing was applied.', [{ pointer: '', message: error instanceof Error ? error.message : String(error) }]);
  }
}
