import { AccessReader, Principal } from '@alert-ingestion/access';
import { CreateIncidentDto, ListIncidentsQueryDto, UpdateIncidentDto } from '@alert-ingestion/alerts-api';
import { AlertsDatabase, runCommand } from '@alert-ingestion/alerts-data';
import { alertNotFound, CommandPlan } from '@alert-ingestion/alerts-domain';
import { answered, parseIid, refusalError } from '@alert-ingestion/alerts-feature';
import { INCIDENT_STATUSES, IncidentAlertView, IncidentStatusCounts, IncidentView, REQUIRED_ACCESS_LEVEL } from '@alert-ingestion/contracts';
import { PageInfo, pageInfo, pageRequest } from '@alert-ingestion/http';
import { incidentChangeStatements, IncidentsRepository } from '@alert-ingestion/workflow-data';
import {
  IncidentActor,
  incidentAlertsView,
  IncidentChanges,
  incidentNotFound,
  incidentView,
  planAlertLink,
  planIncidentCreation,
  planIncidentFromAlert,
  planIncidentUpdate,
  StoredIncident,
} from '@alert-ingestion/workflow-domain';
import { Injectable } from '@nestjs/common';
import { ScriptedTransaction } from '@alert-ingestion/alerts-data';

export interface IncidentListPage {
  incidents: IncidentView[];
  page: PageInfo;
}

/**
 * The incidents API (docs/api-guide.md "Incidents"): incidents opened by users or from alerts,
 * alerts linked to them (one incident per alert), edited (each edit on the incident's timeline),
 * owned, closed (resolving their alerts) and reopened. Every change is a plan of workflow-domain's
 * incident-commands.ts run by runCommand over the repository's locked read, and written by its one
 * writer (libs/processor/README.md). Authorisation is the shared access control's (ProjectRoute).
 */
@Injectable()
export class IncidentsService {
  constructor(
    private readonly database: AlertsDatabase,
    private readonly repository: IncidentsRepository,
    private readonly access: AccessReader,
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

  /** Its alerts, open ones first (incidentAlertsView); 404 when there is no such incident. */
  async alerts(projectId: string, iidText: string): Promise<IncidentAlertView[]> {
    const incident = await this.stored(projectId, iidText);
    return incidentAlertsView(await this.repository.alerts(incident.id));
  }

  /** The incident of an iid in the path: 404 when there is none. */
  async stored(projectId: string, iidText: string): Promise<StoredIncident> {
    const iid = parseIid(iidText);
    const incident = iid === null ? undefined : await this.repository.find(projectId, iid);
    if (!incident) throw refusalError(incidentNotFound(iidText));
    return incident;
  }

  async create(projectId: string, body: CreateIncidentDto, principal: Principal): Promise<IncidentView> {
    const fields = { title: body.title, description: body.description ?? null, severity: body.severity ?? 'critical' };
    const { actor, usernames, now } = commandContext(principal);
    const incident = await this.change(
      async (transaction) => ({ numbering: await this.repository.numbering(transaction, projectId) }),
      (state) => planIncidentCreation(state, projectId, fields, actor, now, usernames),
    );
    return incidentView(incident, usernames);
  }

  async createFromAlert(projectId: string, alertIidText: string, principal: Principal): Promise<IncidentView> {
    const alertIid = parseIid(alertIidText);
    if (alertIid === null) throw refusalError(alertNotFound(alertIidText));
    const { actor, usernames, now } = commandContext(principal);
    const incident = await this.change(
      (transaction) => this.repository.alertForIncident(transaction, projectId, alertIid),
      (state) => planIncidentFromAlert(state, alertIid, actor, now, usernames),
    );
    return incidentView(incident, usernames);
  }

  async linkAlert(projectId: string, iidText: string, alertIid: number, principal: Principal): Promise<IncidentView> {
    const iid = incidentIid(iidText);
    const { actor, now } = commandContext(principal);
    await this.change(
      (transaction) => this.repository.incidentAndAlert(transaction, projectId, iid, alertIid),
      (state) => planAlertLink(state, iidText, alertIid, actor, now),
    );
    return this.find(projectId, iidText);
  }

  /** Edits, owns, closes (resolving its alerts, in the same transaction) or reopens an incident. */
  async update(projectId: string, iidText: string, body: UpdateIncidentDto, principal: Principal): Promise<IncidentView> {
    const iid = incidentIid(iidText);
    const { actor, usernames, now } = commandContext(principal);
    const owners = body.owner_id == null ? new Map<string, string>() : await this.owners(projectId);
    const request = { status: body.status, title: body.title, description: body.description, severity: body.severity, ownerId: body.owner_id };
    await this.change(
      (transaction) => this.repository.incidentWithAlerts(transaction, projectId, iid),
      (state) => planIncidentUpdate(state, iidText, request, owners, actor, now, usernames),
    );
    return this.find(projectId, iidText);
  }

  /**
   * Runs an incident command (read, plan, the one writer of IncidentChanges) and answers the
   * incident it opened or changed, as the plan left it; a refusal is thrown as its HTTP error.
   */
  private async change<State extends object>(read: (transaction: ScriptedTransaction) => Promise<State>, plan: (state: State) => CommandPlan<IncidentChanges>): Promise<StoredIncident> {
    const result = await runCommand(this.database, {
      read,
      plan,
      write: (_, changes, state) => ({
        answer: changes?.created[0] ?? changes?.updated[0] ?? ('incident' in state ? (state.incident as StoredIncident) : undefined),
        atCommit: incidentChangeStatements(changes),
      }),
    });
    const incident = answered(result);
    if (!incident) throw new Error('an incident command answered no incident');
    return incident;
  }

  /** The members who may own an incident: developer+, by user id. */
  private async owners(projectId: string): Promise<Map<string, string>> {
    const members = await this.access.projectMembers(BigInt(projectId), REQUIRED_ACCESS_LEVEL.manageIncidents);
    return new Map(members.map((member) => [member.id, member.username]));
  }

  private async view(incident: StoredIncident): Promise<IncidentView> {
    return incidentView(incident, await this.creators([incident]));
  }

  /** The usernames of the users who opened `incidents` (one query). */
  private creators(incidents: readonly StoredIncident[]): Promise<Map<string, string>> {
    return this.access.usernames([...new Set(incidents.flatMap((incident) => (incident.created_by_user_id === null ? [] : [incident.created_by_user_id])))]);
  }
}

function incidentIid(text: string): number {
  const iid = parseIid(text);
  if (iid === null) throw refusalError(incidentNotFound(text));
  return iid;
}

/** A user's command: the user acts, and their username is at hand for what the command answers and publishes. */
function commandContext(principal: Principal): { actor: IncidentActor & { type: 'user' }; usernames: Map<string, string>; now: Date } {
  const userId = principal.kind === 'user' ? principal.userId.toString() : null;
  const usernames = new Map(principal.kind === 'user' ? [[principal.userId.toString(), principal.username]] : []);
  return { actor: { type: 'user', userId }, usernames, now: new Date() };
}
