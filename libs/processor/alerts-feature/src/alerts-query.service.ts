import { Injectable } from '@nestjs/common';
import { ALERT_STATUSES, AlertStatus, AlertView } from '@alert-ingestion/contracts';
import { alertView } from '@alert-ingestion/alerts-domain';
import { AlertsQueryRepository } from '@alert-ingestion/alerts-data';
import { ConflictError, NotFoundError, PageInfo, pageInfo, pageRequest } from '@alert-ingestion/http';
import { ListAlertsQueryDto } from '@alert-ingestion/alerts-api';

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
  constructor(private readonly repository: AlertsQueryRepository) {}

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
    const iid = parseIid(iidText);
    const row = iid === null ? undefined : await this.repository.find(projectId, iid);
    if (!row) throw alertNotFound(iidText);
    return alertView(row);
  }

  async updateStatus(projectId: string, iidText: string, status: AlertStatus): Promise<AlertView> {
    const iid = parseIid(iidText);
    if (iid === null) throw alertNotFound(iidText);
    const result = await this.repository.updateStatus(projectId, iid, status, new Date());
    if (result.outcome === 'not_found') throw alertNotFound(iidText);
    if (result.outcome === 'conflict') {
      throw new ConflictError(`Alert ${iid} cannot be reopened: another alert with the same fingerprint is not resolved.`);
    }
    return alertView(result.alert);
  }
}

function alertNotFound(iid: string): NotFoundError {
  return new NotFoundError(`Alert ${iid} not found.`, 'alert_not_found');
}
