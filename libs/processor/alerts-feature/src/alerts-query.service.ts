import { Injectable } from '@nestjs/common';
import { ALERT_STATUSES, AlertBulkUpdateResult, AlertStatus, AlertView, AssigneeCandidate, REQUIRED_ACCESS_LEVEL } from '@alert-ingestion/contracts';
import { AccessReader, Principal } from '@alert-ingestion/access';
import {
  alertNotFound as alertNotFoundRefusal,
  alertView,
  planAssignment,
  planBulkUpdate,
  planStatusChange,
  AlertStatusUpdate,
  StoredAlert,
  StoredAssignee,
  withStatusUpdate,
} from '@alert-ingestion/alerts-domain';
import { alertUpdateStatements, AlertsDatabase, AlertsQueryRepository, lostStatusRace, runCommand } from '@alert-ingestion/alerts-data';
import { DomainError, PageInfo, pageInfo, pageRequest } from '@alert-ingestion/http';
import { AlertBulkUpdateDto, ListAlertsQueryDto } from '@alert-ingestion/alerts-api';
import { answered, refusalError } from './command-refusal';
import { userCause } from './user-cause';

export interface AlertListPage {
  alerts: AlertView[];
  page: PageInfo;
}

/** `GET .../alerts/status_counts` (CONTRACT.md): alerts per status, `open` = triggered + acknowledged. */
export type AlertStatusCounts = Record<AlertStatus, number> & { open: number; all: number };

const IID = /^[1-9][0-9]{0,9}$/;

/** A path iid (alert or incident): a positive int4, or null. */
export function parseIid(text: string): number | null {
  if (!IID.test(text)) return null;
  const iid = Number(text);
  return iid <= 2_147_483_647 ? iid : null;
}

/**
 * The alerts query API (CONTRACT.md "Alerts query API") and its commands, each a pure plan of
 * alerts-domain run by runCommand over the repository's locked read (libs/processor/README.md);
 * authorisation is the shared access control's (ProjectRoute).
 */
@Injectable()
export class AlertsQueryService {
  constructor(
    private readonly database: AlertsDatabase,
    private readonly repository: AlertsQueryRepository,
    private readonly access: AccessReader,
  ) {}

  async list(projectId: string, query: ListAlertsQueryDto, by: Principal): Promise<AlertListPage> {
    const { page, perPage } = pageRequest(query);
    const assignee = query.assignee_id === 'me' ? (by.kind === 'user' ? by.userId.toString() : 'nobody') : query.assignee_id;
    const result = await this.repository.list({
      projectId,
      status: query.status,
      search: query.search,
      silenced: query.silenced,
      assignee,
      assigneeUsername: query.assignee_username,
      severities: query.severity,
      sort: query.sort,
      order: query.order,
      page,
      perPage,
    });
    return { alerts: result.alerts.map(alertView), page: pageInfo(result.total, page, perPage) };
  }

  async statusCounts(projectId: string): Promise<AlertStatusCounts> {
    const byStatus = await this.repository.countByStatus(projectId);
    const counts = Object.fromEntries(ALERT_STATUSES.map((status) => [status, byStatus.get(status) ?? 0])) as Record<AlertStatus, number>;
    return { ...counts, open: counts.triggered + counts.acknowledged, all: ALERT_STATUSES.reduce((sum, status) => sum + counts[status], 0) };
  }

  async find(projectId: string, iidText: string): Promise<AlertView> {
    return alertView(await this.stored(projectId, iidText));
  }

  /** The alert of an iid in the path: 404 when there is none. */
  async stored(projectId: string, iidText: string): Promise<StoredAlert> {
    const iid = parseIid(iidText);
    const row = iid === null ? undefined : await this.repository.find(projectId, iid);
    if (!row) throw alertNotFound(iidText);
    return row;
  }

  /** The members an alert may be assigned to: developer+ (REQUIRED_ACCESS_LEVEL.assignAlerts's role, which assigning takes), by username. */
  async assigneeCandidates(projectId: string): Promise<AssigneeCandidate[]> {
    const members = await this.access.projectMembers(BigInt(projectId), REQUIRED_ACCESS_LEVEL.assignAlerts);
    return members.map((member) => ({ id: Number(member.id), username: member.username, access_level: member.accessLevel }));
  }

  async assign(projectId: string, iidText: string, assigneeIds: readonly number[], by: Principal): Promise<AlertView> {
    const iid = parseIid(iidText);
    if (iid === null) throw alertNotFound(iidText);
    const candidates = await this.candidatesById(projectId);
    const now = new Date();
    const alert = await runCommand(this.database, {
      read: (transaction) => this.repository.lockForChange(transaction, projectId, iid),
      plan: (state) => planAssignment(state, iid, assigneeIds, candidates, now, userCause(by)),
      write: (_, update, { alert }) => changedAlert(alert as StoredAlert, update),
    });
    return alertView(answered(alert));
  }

  async bulkUpdate(projectId: string, body: AlertBulkUpdateDto, by: Principal): Promise<AlertBulkUpdateResult> {
    const candidates = body.assignee_ids === undefined ? new Map<string, string>() : await this.candidatesById(projectId);
    const request = { iids: body.iids, status: body.status, assigneeIds: body.assignee_ids };
    const now = new Date();
    const result = await runCommand(this.database, {
      read: (transaction) => this.repository.lockAll(transaction, projectId, request.iids),
      plan: (alerts) => planBulkUpdate(alerts, request, candidates, now, userCause(by), acknowledger(by)),
      write: (_, changes) => ({ answer: { updated: changes?.updated ?? [], skipped: changes?.skipped ?? [] }, atCommit: alertUpdateStatements(changes?.updates ?? []) }),
    });
    return answered(result);
  }

  private async candidatesById(projectId: string): Promise<Map<string, string>> {
    return new Map((await this.assigneeCandidates(projectId)).map((candidate) => [String(candidate.id), candidate.username]));
  }

  async updateStatus(projectId: string, iidText: string, status: AlertStatus, by: Principal): Promise<AlertView> {
    const iid = parseIid(iidText);
    if (iid === null) throw alertNotFound(iidText);
    const now = new Date();
    const alert = await runCommand(this.database, {
      read: (transaction) => this.repository.lockForStatusChange(transaction, projectId, iid),
      plan: (state) => planStatusChange(state, iid, status, now, userCause(by), acknowledger(by)),
      write: (_, update, { alert }) => changedAlert(alert as StoredAlert, update),
      lostRace: lostStatusRace,
    });
    return alertView(answered(alert));
  }
}

/** A command's write of one alert's change (none: the alert as it is), and the alert after it. */
function changedAlert(alert: StoredAlert, update: AlertStatusUpdate | null) {
  return update ? { answer: withStatusUpdate(alert, update), atCommit: alertUpdateStatements([update]) } : { answer: alert };
}

/** Who is assigned when acknowledging an alert nobody is assigned to: the user; nobody for the administrator token. */
function acknowledger(by: Principal): StoredAssignee | undefined {
  return by.kind === 'user' ? { id: by.userId.toString(), username: by.username } : undefined;
}

function alertNotFound(iid: string): DomainError {
  return refusalError(alertNotFoundRefusal(iid));
}
