import { AccessReader, Principal } from '@alert-ingestion/access';
import { ActivityEntryOut, ActivitySubject } from '@alert-ingestion/alerts-domain';
import { AlertsQueryService, INTEGRATION_LOOKUP, IntegrationLookup, userCause } from '@alert-ingestion/alerts-feature';
import { ActivityEntryView } from '@alert-ingestion/contracts';
import { PageInfo, pageInfo, pageRequest, PaginationQueryDto } from '@alert-ingestion/http';
import { TimelineRepository } from '@alert-ingestion/workflow-data';
import { activityActorIds, activityEntryView, derivedAlertEntries, noteEntry, StoredActivityEntry } from '@alert-ingestion/workflow-domain';
import { Inject, Injectable } from '@nestjs/common';
import { IncidentsService } from './incidents.service';

export interface TimelinePage {
  entries: ActivityEntryView[];
  page: PageInfo;
}

/** Whose timeline a request is about: an alert's or an incident's, by the iid in its path. */
export type TimelineOf = { alertIid: string } | { incidentIid: string };

/**
 * The timelines of alerts and incidents as the API answers them (docs/api-guide.md "Alert workflow"):
 * a page, oldest first, with its actors' usernames (one query per page) and the names of the
 * integrations it mentions (the processor's integration view); and notes members write. An alert's
 * timeline also holds the entries its row keeps (derivedAlertEntries: its creation, grouped events).
 */
@Injectable()
export class TimelineService {
  constructor(
    private readonly entries: TimelineRepository,
    private readonly alerts: AlertsQueryService,
    private readonly incidents: IncidentsService,
    private readonly access: AccessReader,
    @Inject(INTEGRATION_LOOKUP) private readonly integrations: IntegrationLookup,
  ) {}

  async page(projectId: string, of: TimelineOf, query: PaginationQueryDto): Promise<TimelinePage> {
    const { page, perPage, offset } = pageRequest(query);
    const { subject, derived } = await this.subject(projectId, of);
    const result = await this.entries.activityPage(subject, { offset, perPage }, derived);
    return { entries: await this.views(result.entries), page: pageInfo(result.total, page, perPage) };
  }

  /** Appends a note (Markdown, checked by CreateNoteDto) written by `by`, and answers it. */
  async addNote(projectId: string, of: TimelineOf, body: string, by: Principal): Promise<ActivityEntryView> {
    const { subject } = await this.subject(projectId, of);
    const stored = await this.entries.append(noteEntry(projectId, subject, body, userCause(by), new Date()));
    const [view] = await this.views([stored]);
    return view;
  }

  /** The timeline of the alert or incident the path names (404 when the project has none), and the entries its row keeps. */
  private async subject(projectId: string, of: TimelineOf): Promise<{ subject: ActivitySubject; derived: ActivityEntryOut[] }> {
    if ('alertIid' in of) {
      const alert = await this.alerts.stored(projectId, of.alertIid);
      return { subject: { alertId: alert.id }, derived: derivedAlertEntries(alert) };
    }
    return { subject: { incidentId: (await this.incidents.stored(projectId, of.incidentIid)).id }, derived: [] };
  }

  private async views(entries: readonly StoredActivityEntry[]): Promise<ActivityEntryView[]> {
    const usernames = await this.access.usernames(activityActorIds(entries));
    return entries.map((entry) => activityEntryView(entry, usernames, (id) => this.integrations.findById(id)?.name));
  }
}
