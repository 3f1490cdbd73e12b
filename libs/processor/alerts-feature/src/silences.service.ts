import { Principal } from '@alert-ingestion/access';
import { ListSilencesQueryDto, CreateSilenceDto, UpdateSilenceDto } from '@alert-ingestion/alerts-api';
import { checkSilenceWindow, parseSilenceMatchers, silenceState } from '@alert-ingestion/alerts-domain';
import { SilenceChanges, SilencesRepository, StoredSilence } from '@alert-ingestion/alerts-data';
import { SilenceMatcher, SilenceView } from '@alert-ingestion/contracts';
import { BadRequestError, ConflictError, NotFoundError, PageInfo, pageInfo, pageRequest } from '@alert-ingestion/http';
import { Injectable } from '@nestjs/common';

export interface SilenceListPage {
  silences: SilenceView[];
  page: PageInfo;
}

/**
 * The silences API (README.md "Silences"). As in Alertmanager: a silence starts now unless it names
 * a later start, must end in the future and after it starts, and needs a comment and at least one
 * matcher; expiring ends it now, and expired silences stay listed. Authorisation is the shared
 * access control's (ProjectRoute).
 */
@Injectable()
export class SilencesService {
  constructor(private readonly repository: SilencesRepository) {}

  async create(projectId: string, body: CreateSilenceDto, principal: Principal, now = new Date()): Promise<SilenceView> {
    const matchers = valid(parseSilenceMatchers(body.matchers));
    const requestedStart = body.starts_at === undefined ? now : new Date(body.starts_at);
    // Alertmanager: a start in the past is now.
    const startsAt = requestedStart.getTime() < now.getTime() ? now : requestedStart;
    const endsAt = new Date(body.ends_at);
    if (endsAt.getTime() <= now.getTime()) throw invalid('ends_at must be in the future.', 'ends_at');
    valid(checkSilenceWindow(startsAt, endsAt));
    const createdBy = principal.kind === 'user' ? { id: principal.userId.toString(), username: principal.username } : null;
    const silence = await this.repository.create({ projectId, matchers, startsAt, endsAt, comment: body.comment, createdBy }, now);
    return silenceView(silence, now);
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
    const matchers: SilenceMatcher[] | undefined = body.matchers === undefined ? undefined : valid(parseSilenceMatchers(body.matchers));
    const endsAt = body.ends_at === undefined ? undefined : new Date(body.ends_at);
    if (endsAt && endsAt.getTime() <= now.getTime()) throw invalid('ends_at must be in the future; to end a silence now, expire it.', 'ends_at');
    const result = await this.repository.update(projectId, id, now, (current) => {
      if (silenceState(current, now) === 'expired') return { error: new ConflictError(`Silence ${id} has expired; create a new one.`, 'silence_expired') };
      if (endsAt) {
        const window = checkSilenceWindow(current.starts_at, endsAt);
        if (!window.ok) return { error: invalid(window.message, window.field) };
      }
      const changes: SilenceChanges = { matchers, endsAt, comment: body.comment };
      return { changes: Object.values(changes).some((value) => value !== undefined) ? changes : null };
    });
    if (!result) throw silenceNotFound(id);
    if ('error' in result) throw result.error;
    return silenceView(result.silence, now);
  }

  async expire(projectId: string, id: string, now = new Date()): Promise<SilenceView> {
    const silence = await this.repository.expire(projectId, id, now);
    if (!silence) throw silenceNotFound(id);
    return silenceView(silence, now);
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

function valid<T>(parsed: { ok: true; value: T } | { ok: false; message: string; field?: string }): T {
  if (!parsed.ok) throw invalid(parsed.message, parsed.field);
  return parsed.value;
}

/** A 400 naming the request field it is about (`ends_at`, `matchers[0].value`), so a form shows it there. */
function invalid(message: string, field?: string): BadRequestError {
  return new BadRequestError('validation_failed', message, field);
}

/** The 404 of a silence id the project does not have (or text that is no id). */
export function silenceNotFound(id: string): NotFoundError {
  return new NotFoundError(`Silence ${id} not found.`, 'silence_not_found');
}
