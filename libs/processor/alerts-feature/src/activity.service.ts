import { AccessReader, Principal } from '@alert-ingestion/access';
import { ActivityEntriesRepository } from '@alert-ingestion/alerts-data';
import { activityActorIds, activityEntryView, ActivityEntryOut, ActivitySubject, noteEntry, StoredActivityEntry } from '@alert-ingestion/alerts-domain';
import { ActivityEntryView } from '@alert-ingestion/contracts';
import { PageInfo, pageInfo, pageRequest, PaginationQueryDto } from '@alert-ingestion/http';
import { Inject, Injectable } from '@nestjs/common';
import { INTEGRATION_LOOKUP, IntegrationLookup } from './integration-lookup';
import { userCause } from './user-cause';

export interface ActivityViewPage {
  entries: ActivityEntryView[];
  page: PageInfo;
}

/**
 * The timelines of alerts and incidents as the API answers them (docs/api-guide.md "Alert workflow"):
 * a page, oldest first, with its actors' usernames (one query per page) and the names of the
 * integrations it mentions (the processor's integration view); and notes members write.
 * The subject (an alert's or an incident's database id) is the caller's to resolve and authorise.
 */
@Injectable()
export class ActivityService {
  constructor(
    private readonly entries: ActivityEntriesRepository,
    private readonly access: AccessReader,
    @Inject(INTEGRATION_LOOKUP) private readonly integrations: IntegrationLookup,
  ) {}

  /** `derived`: entries the subject's row holds (an alert's: derivedAlertEntries), placed among the stored ones by time. */
  async page(subject: ActivitySubject, query: PaginationQueryDto, derived: readonly ActivityEntryOut[] = []): Promise<ActivityViewPage> {
    const { page, perPage, offset } = pageRequest(query);
    const result = await this.entries.activityPage(subject, { offset, perPage }, derived);
    return { entries: await this.views(result.entries), page: pageInfo(result.total, page, perPage) };
  }

  /** Appends a note (Markdown, checked by CreateNoteDto) written by `by`, and answers it. */
  async addNote(projectId: string, subject: ActivitySubject, body: string, by: Principal): Promise<ActivityEntryView> {
    const stored = await this.entries.append(noteEntry(projectId, subject, body, userCause(by), new Date()));
    const [view] = await this.views([stored]);
    return view;
  }

  private async views(entries: readonly StoredActivityEntry[]): Promise<ActivityEntryView[]> {
    const usernames = await this.access.usernames(activityActorIds(entries));
    return entries.map((entry) => activityEntryView(entry, usernames, (id) => this.integrations.findById(id)?.name));
  }
}
