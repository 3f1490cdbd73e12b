import { AccessReader, Principal } from '@alert-ingestion/access';
import { CreateIncidentDto, ListIncidentsQueryDto, UpdateAlertSettingsDto, UpdateIncidentDto } from '@alert-ingestion/alerts-api';
import { IncidentActor, incidentNotFound, incidentView, StoredIncident } from '@alert-ingestion/alerts-domain';
import { IncidentCommandContext, IncidentsRepository } from '@alert-ingestion/alerts-data';
import { ActivityEntryView, AlertSettingsView, INCIDENT_STATUSES, IncidentStatusCounts, IncidentView } from '@alert-ingestion/contracts';
import { PageInfo, pageInfo, pageRequest, PaginationQueryDto } from '@alert-ingestion/http';
import { Inject, Injectable } from '@nestjs/common';
import { ALERTS_FEATURE_OPTIONS, AlertsFeatureOptions } from './alerts-feature.options';
import { ActivityService, ActivityViewPage } from './activity.service';
import { answered, refusalError } from './command-refusal';
import { parseIid } from './alerts-query.service';

export interface IncidentListPage {
  incidents: IncidentView[];
  page: PageInfo;
}

/**
 * The incidents API and the alert settings (docs/api-guide.md "Incidents", "Alert settings"):
 * incidents opened by users or from alerts, alerts linked to them (one incident per alert), closed
 * (resolving their alerts) and reopened. Authorisation is the shared access control's (ProjectRoute).
 */
@Injectable()
export class IncidentsService {
  constructor(
    private readonly repository: IncidentsRepository,
    private readonly activityLog: ActivityService,
    private readonly access: AccessReader,
    @Inject(ALERTS_FEATURE_OPTIONS) private readonly options: AlertsFeatureOptions,
  ) {}

  async list(projectId: string, query: ListIncidentsQueryDto): Promise<IncidentListPage> {
    const { page, perPage } = pageRequest(query);
    const result = await this.repository.list({ projectId, status: query.status, search: query.search, page, perPage });
    const usernames = await this.creators(result.incidents);
    return { incidents: result.incidents.map((incident) => incidentView(incident, usernames)), page: pageInfo(result.total, page, perPage) };
  }

  async statusCounts(projectId: string): Promise<IncidentStatusCounts> {
    const byStatus = await this.repository.countByStatus(projectId);
    const [open, closed] = INCIDENT_STATUSES.map((status) => byStatus.get(status) ?? 0);
    return { open, closed, all: open + closed };
  }

  async find(projectId: string, iidText: string): Promise<IncidentView> {
    return this.view(await this.stored(projectId, iidText));
  }

  async activity(projectId: string, iidText: string, query: PaginationQueryDto): Promise<ActivityViewPage> {
    return this.activityLog.page({ incidentId: (await this.stored(projectId, iidText)).id }, query);
  }

  async addNote(projectId: string, iidText: string, body: string, by: Principal): Promise<ActivityEntryView> {
    return this.activityLog.addNote(projectId, { incidentId: (await this.stored(projectId, iidText)).id }, body, by);
  }

  async create(projectId: string, body: CreateIncidentDto, principal: Principal): Promise<IncidentView> {
    const fields = { title: body.title, description: body.description ?? null, severity: body.severity ?? 'critical' };
    const context = commandContext(principal);
    return incidentView(await this.repository.create(projectId, fields, actorId(principal), context), context.usernames);
  }

  async createFromAlert(projectId: string, alertIidText: string, principal: Principal): Promise<IncidentView> {
    const alertIid = parseIid(alertIidText);
    if (alertIid === null) throw refusalError({ kind: 'not_found', code: 'alert_not_found', message: `Alert ${alertIidText} not found.` });
    const context = commandContext(principal);
    return incidentView(answered(await this.repository.createFromAlert(projectId, alertIid, actorId(principal), context)), context.usernames);
  }

  async linkAlert(projectId: string, iidText: string, alertIid: number, principal: Principal): Promise<IncidentView> {
    const iid = this.incidentIid(iidText);
    return this.view(answered(await this.repository.linkAlert(projectId, iid, alertIid, commandContext(principal))));
  }

  async update(projectId: string, iidText: string, body: UpdateIncidentDto, principal: Principal): Promise<IncidentView> {
    const iid = this.incidentIid(iidText);
    return this.view(answered(await this.repository.update(projectId, iid, body, commandContext(principal))));
  }

  async alertSettings(projectId: string): Promise<AlertSettingsView> {
    return { ...(await this.repository.alertSettings(projectId)), email_configured: this.options.email !== undefined };
  }

  async updateAlertSettings(projectId: string, body: UpdateAlertSettingsDto): Promise<AlertSettingsView> {
    const { create_incident, send_email, auto_close_incident } = body;
    return { ...(await this.repository.updateAlertSettings(projectId, { create_incident, send_email, auto_close_incident })), email_configured: this.options.email !== undefined };
  }

  private async stored(projectId: string, iidText: string): Promise<StoredIncident> {
    const iid = parseIid(iidText);
    const incident = iid === null ? undefined : await this.repository.find(projectId, iid);
    if (!incident) throw refusalError(incidentNotFound(iidText));
    return incident;
  }

  private async view(incident: StoredIncident): Promise<IncidentView> {
    return incidentView(incident, await this.creators([incident]));
  }

  /** The usernames of the users who opened `incidents` (one query). */
  private creators(incidents: readonly StoredIncident[]): Promise<Map<string, string>> {
    return this.access.usernames([...new Set(incidents.flatMap((incident) => (incident.created_by_user_id === null ? [] : [incident.created_by_user_id])))]);
  }

  private incidentIid(text: string): number {
    const iid = parseIid(text);
    if (iid === null) throw refusalError(incidentNotFound(text));
    return iid;
  }
}

function actorId(principal: Principal): string | null {
  return principal.kind === 'user' ? principal.userId.toString() : null;
}

/** A user's command: the user acts, and their username is at hand for what the command answers and publishes. */
function commandContext(principal: Principal): IncidentCommandContext {
  const actor: IncidentActor = { type: 'user', userId: actorId(principal) };
  const usernames = new Map(principal.kind === 'user' ? [[principal.userId.toString(), principal.username]] : []);
  return { actor, usernames, now: new Date() };
}
