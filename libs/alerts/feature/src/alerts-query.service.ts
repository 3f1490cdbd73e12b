import { Injectable } from '@nestjs/common';
import { AlertStatus, AlertView } from '@alert-ingestion/contracts';
import { AlertsQueryRepository, alertView } from '@alert-ingestion/alerts-data';
import { ConflictError, NotFoundError } from '@alert-ingestion/http';
import { DEFAULT_PER_PAGE, ListAlertsQueryDto } from './alerts-query.dto';

export interface AlertListPage {
  alerts: AlertView[];
  total: number;
  page: number;
  perPage: number;
  totalPages: number;
  nextPage: number | null;
  previousPage: number | null;
}

const IID = /^[1-9][0-9]{0,9}$/;

function parseIid(text: string): number | null {
  if (!IID.test(text)) return null;
  const iid = Number(text);
  return iid <= 2_147_483_647 ? iid : null;
}

/** The alerts query API (CONTRACT.md "Alerts query API"); authorisation is done by ProjectAccessGuard. */
@Injectable()
export class AlertsQueryService {
  constructor(private readonly repository: AlertsQueryRepository) {}

  async list(projectId: string, query: ListAlertsQueryDto): Promise<AlertListPage> {
    const page = query.page ?? 1;
    const perPage = query.per_page ?? DEFAULT_PER_PAGE;
    const result = await this.repository.list({ projectId, status: query.status, search: query.search, page, perPage });
    const totalPages = Math.max(1, Math.ceil(result.total / perPage));
    return {
      alerts: result.alerts.map(alertView),
      total: result.total,
      page,
      perPage,
      totalPages,
      nextPage: page < totalPages ? page + 1 : null,
      previousPage: page > 1 ? Math.min(page - 1, totalPages) : null,
    };
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
