import { Injectable } from '@nestjs/common';
import { ActivityEntryView, ALERT_STATUSES, AlertBulkUpdateResult, AlertStatus, AlertView, AssigneeCandidate, REQUIRED_ACCESS_LEVEL } from '@alert-ingestion/contracts';
import { AccessReader, Principal } from '@alert-ingestion/access';
import { alertNotFound as alertNotFoundRefusal, alertView, derivedAlertEntries, StoredAlert, StoredAssignee } from '@alert-ingestion/alerts-domain';
import { AlertsQueryRepository } from '@alert-ingestion/alerts-data';
import { DomainError, PageInfo, pageInfo, pageRequest, PaginationQueryDto } from '@alert-ingestion/http';
import { AlertBulkUpdateDto, ListAlertsQueryDto } from '@alert-ingestion/alerts-api';
import { answered, refusalError } from './command-refusal';
import { userCause } from './user-cause';
import { ActivityService, ActivityViewPage } from './activity.service';

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

/** The alerts query API (CONTRACT.md "Alerts query API"); authorisation is the shared access control's (ProjectRoute). */
@Injectable()
export class AlertsQueryService {
  constructor(
    private readonly repository: AlertsQueryRepository,
    private readonly activityLog: ActivityService,
    private readonly access: AccessReader,
  ) {}

  async list(projectId: string, query: ListAlertsQueryDto, by: Principal): Promise<AlertListPage> {
    const { page, perPage } = pageRequest(query);
    const assignee = query.assignee_id === 'me' ? (by.kind === 'user' ? by.userId.toString() : 'nobody') : query.assignee_id;
    const result = await this.repository.list({ projectId, status: query.status, search: query.search, silenced: query.silenced, assignee, page, perPage });
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
  private async stored(projectId: string, iidText: string): Promise<StoredAlert> {
    const iid = parseIid(iidText);
    const row = iid === null ? undefined : await this.repository.find(projectId, iid);
    if (!row) throw alertNotFound(iidText);
    return row;
  }

  /** The alert's timeline (ActivityService), oldest first, its creation and grouped events among the entries. */
  async activity(projectId: string, iidText: string, query: PaginationQueryDto): Promise<ActivityViewPage> {
    const alert = await this.stored(projectId, iidText);
    return this.activityLog.page({ alertId: alert.id }, query, derivedAlertEntries(alert));
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
    return alertView(answered(await this.repository.assign(projectId, iid, assigneeIds, candidates, new Date(), userCause(by))));
  }

  async bulkUpdate(projectId: string, body: AlertBulkUpdateDto, by: Principal): Promise<AlertBulkUpdateResult> {
    const candidates = body.assignee_ids === undefined ? new Map<string, string>() : await this.candidatesById(projectId);
    const request = { iids: body.iids, status: body.status, assigneeIds: body.assignee_ids };
    const { updated, skipped } = answered(await this.repository.bulkUpdate(projectId, request, candidates, new Date(), userCause(by), acknowledger(by)));
    return { updated, skipped };
  }

  private async candidatesById(projectId: string): Promise<Map<string, string>> {
    return new Map((await this.assigneeCandidates(projectId)).map((candidate) => [String(candidate.id), candidate.username]));
  }

  async addNote(projectId: string, iidText: string, body: string, by: Principal): Promise<ActivityEntryView> {
    return this.activityLog.addNote(projectId, { alertId: (await this.stored(projectId, iidText)).id }, body, by);
  }

  async updateStatus(projectId: string, iidText: string, status: AlertStatus, by: Principal): Promise<AlertView> {
    const iid = parseIid(iidText);
    if (iid === null) throw alertNotFound(iidText);
    return alertView(answered(await this.repository.changeStatus(projectId, iid, status, new Date(), userCause(by), acknowledger(by))));
  }
}

/** Who is assigned when acknowledging an alert nobody is assigned to: the user; nobody for the administrator token. */
function acknowledger(by: Principal): StoredAssignee | undefined {
  return by.kind === 'user' ? { id: by.userId.toString(), username: by.username } : undefined;
}

function alertNotFound(iid: string): DomainError {
  return refusalError(alertNotFoundRefusal(iid));
}
