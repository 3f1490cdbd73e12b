import { Injectable } from '@nestjs/common';
import { ActivityEntryView, ALERT_STATUSES, AlertStatus, AlertView } from '@alert-ingestion/contracts';
import { Principal } from '@alert-ingestion/access';
import { alertNotFound as alertNotFoundRefusal, alertView, StoredAlert } from '@alert-ingestion/alerts-domain';
import { AlertsQueryRepository } from '@alert-ingestion/alerts-data';
import { DomainError, PageInfo, pageInfo, pageRequest, PaginationQueryDto } from '@alert-ingestion/http';
import { ListAlertsQueryDto } from '@alert-ingestion/alerts-api';
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

function parseIid(text: string): number | null {
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
  ) {}

  async list(projectId: string, query: ListAlertsQueryDto): Promise<AlertListPage> {
    const { page, perPage } = pageRequest(query);
    const result = await this.repository.list({ projectId, status: query.status, search: query.search, silenced: query.silenced, page, perPage });
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

  /** The alert's timeline (ActivityService), oldest first. */
  async activity(projectId: string, iidText: string, query: PaginationQueryDto): Promise<ActivityViewPage> {
    return this.activityLog.page({ alertId: (await this.stored(projectId, iidText)).id }, query);
  }

  async addNote(projectId: string, iidText: string, body: string, by: Principal): Promise<ActivityEntryView> {
    return this.activityLog.addNote(projectId, { alertId: (await this.stored(projectId, iidText)).id }, body, by);
  }

  async updateStatus(projectId: string, iidText: string, status: AlertStatus, by: Principal): Promise<AlertView> {
    const iid = parseIid(iidText);
    if (iid === null) throw alertNotFound(iidText);
    return alertView(answered(await this.repository.changeStatus(projectId, iid, status, new Date(), userCause(by))));
  }
}

function alertNotFound(iid: string): DomainError {
  return refusalError(alertNotFoundRefusal(iid));
}
