import { Principal } from '@alert-ingestion/access';
import { ListSilencesQueryDto, CreateSilenceDto, UpdateSilenceDto } from '@alert-ingestion/alerts-api';
import { planSilenceEdit, SilenceEdit, silenceNotFound as silenceNotFoundRefusal, silenceState, StoredSilence } from '@alert-ingestion/alerts-domain';
import { AlertsDatabase, runCommand, SilencesRepository } from '@alert-ingestion/alerts-data';
import { SilenceView } from '@alert-ingestion/contracts';
import { DomainError, PageInfo, pageInfo, pageRequest } from '@alert-ingestion/http';
import { Injectable } from '@nestjs/common';
import { answered, refusalError } from './command-refusal';

export interface SilenceListPage {
  silences: SilenceView[];
  page: PageInfo;
}

/**
 * The silences API (docs/api-guide.md "Silences"). As in Alertmanager: a silence starts now unless it names
 * a later start, must end in the future and after it starts, and needs a comment and at least one
 * matcher; expiring ends it now, and expired silences stay listed. Authorisation is the shared
 * access control's (ProjectRoute).
 */
@Injectable()
export class SilencesService {
  constructor(
    private readonly database: AlertsDatabase,
    private readonly repository: SilencesRepository,
  ) {}

  async create(projectId: string, body: CreateSilenceDto, principal: Principal, now = new Date()): Promise<SilenceView> {
    const createdBy = principal.kind === 'user' ? { id: principal.userId.toString(), username: principal.username } : null;
    const { matchers, starts_at, ends_at, comment } = body;
    const edit: SilenceEdit = { kind: 'create', projectId, matchers, starts_at, ends_at, comment, createdBy };
    return silenceView(await this.edit(edit, now), now);
  }

  async list(projectId: string, query: ListSilencesQueryDto, now = new Date()): Promise<SilenceListPage> {
    const { page, perPage } = pageRequest(query);
    const result = await this.repository.list({ projectId, state: query.state, page, perPage, now });
    return { silences: result.silences.map((silence) => silenceView(silence, now)), page: pageInfo(result.total, page, perPage) };
  }

  async find(projectId: string, id: string, now = new Date()): Promise<SilenceView> {
    const silence = await this.repository.find(projectId, id);
    if (!silence) throw silenceNotFound(id);
    return silenceView(silence, now);
  }

  /** Changes the comment, the end or the matchers of a silence that has not expired (an expired one is history). */
  async update(projectId: string, id: string, body: UpdateSilenceDto, now = new Date()): Promise<SilenceView> {
    const { matchers, ends_at, comment } = body;
    return silenceView(await this.edit({ kind: 'update', projectId, id, matchers, ends_at, comment }, now), now);
  }

  async expire(projectId: string, id: string, now = new Date()): Promise<SilenceView> {
    return silenceView(await this.edit({ kind: 'expire', projectId, id }, now), now);
  }

  /** Creates, updates or expires a silence: planSilenceEdit over the silence, locked; the answer is the silence as stored now. */
  private async edit(edit: SilenceEdit, now: Date): Promise<StoredSilence> {
    const result = await runCommand(this.database, {
      read: (transaction) => this.repository.lockForEdit(transaction, edit),
      plan: (stored) => planSilenceEdit(stored, edit, now),
      write: (transaction, write, stored) => this.repository.write(transaction, write, stored),
    });
    return answered(result);
  }
}

export function silenceView(silence: StoredSilence, now: Date): SilenceView {
  return {
    id: Number(silence.id),
    matchers: silence.matchers,
    starts_at: silence.starts_at.toISOString(),
    ends_at: silence.ends_at.toISOString(),
    comment: silence.comment,
    created_by: silence.created_by && { id: Number(silence.created_by.id), username: silence.created_by.username },
    created_at: silence.created_at.toISOString(),
    updated_at: silence.updated_at.toISOString(),
    state: silenceState(silence, now),
  };
}

/** The 404 of a silence id the project does not have (or text that is no id). */
export function silenceNotFound(id: string): DomainError {
  return refusalError(silenceNotFoundRefusal(id));
}
