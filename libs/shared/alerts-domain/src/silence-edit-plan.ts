import { SilenceMatcher } from '@alert-ingestion/contracts';
import { CommandPlan, CommandRefusal, refusal, refuse, unchanged } from './command-plan';
import { checkSilenceWindow, parseSilenceMatchers, silenceState, StoredSilence } from './silence-matchers';

/**
 * A change to a project's silences (docs/api-guide.md "Silences"), as the API asks it: times as the request
 * writes them (ISO 8601), matchers not yet checked.
 */
export type SilenceEdit = { projectId: string } & (
  | { kind: 'create'; matchers: unknown; starts_at?: string; ends_at: string; comment: string; createdBy: { id: string; username: string } | null }
  | { kind: 'update'; id: string; matchers?: unknown; ends_at?: string; comment?: string }
  | { kind: 'expire'; id: string }
);

/** A new silence as inserted (its id is the database's). */
export interface NewSilence {
  project_id: string;
  matchers: SilenceMatcher[];
  starts_at: Date;
  ends_at: Date;
  comment: string;
  created_by: { id: string; username: string } | null;
  created_at: Date;
}

/** The columns an update or an expiry writes to a silence (absent: kept). */
export interface SilenceUpdate {
  id: string;
  matchers?: SilenceMatcher[];
  starts_at?: Date;
  ends_at?: Date;
  comment?: string;
  updated_at: Date;
}

export type SilenceWrite = { insert: NewSilence } | { update: SilenceUpdate };

/**
 * Decides a silence edit over the stored silence (locked; undefined when the project has none of
 * that id, and for a create), as Alertmanager does:
 * - create: matchers checked, a start in the past (or none) is now, the end in the future and after
 *   the start, a comment (required by the request's shape);
 * - update: comment, end or matchers of a silence that has not expired (an expired one is history:
 *   409 `silence_expired`); the new end in the future and after the start; nothing asked, nothing changed;
 * - expire: ends it now (a pending one ends where it starts, now); an expired one is left as it is.
 * The request is checked before the stored silence is looked at, so a bad request is a 400 whatever
 * the silence.
 */
export function planSilenceEdit(stored: StoredSilence | undefined, edit: SilenceEdit, now: Date): CommandPlan<SilenceWrite> {
  switch (edit.kind) {
    case 'create':
      return planCreate(edit, now);
    case 'update':
      return planUpdate(stored, edit, now);
    case 'expire':
      if (!stored) return { refused: silenceNotFound(edit.id) };
      if (silenceState(stored, now) === 'expired') return unchanged();
      return { changes: { update: { id: stored.id, ends_at: now, ...(stored.starts_at > now && { starts_at: now }), updated_at: now } }, events: [] };
  }
}

function planCreate(edit: Extract<SilenceEdit, { kind: 'create' }>, now: Date): CommandPlan<SilenceWrite> {
  const matchers = parseSilenceMatchers(edit.matchers);
  if (!matchers.ok) return invalid(matchers);
  const requestedStart = edit.starts_at === undefined ? now : new Date(edit.starts_at);
  // Alertmanager: a start in the past is now.
  const startsAt = requestedStart.getTime() < now.getTime() ? now : requestedStart;
  const endsAt = new Date(edit.ends_at);
  if (endsAt.getTime() <= now.getTime()) return invalid({ message: 'ends_at must be in the future.', field: 'ends_at' });
  const window = checkSilenceWindow(startsAt, endsAt);
  if (!window.ok) return invalid(window);
  const insert: NewSilence = {
    project_id: edit.projectId,
    matchers: matchers.value,
    starts_at: startsAt,
    ends_at: endsAt,
    comment: edit.comment,
    created_by: edit.createdBy,
    created_at: now,
  };
  return { changes: { insert }, events: [] };
}

function planUpdate(stored: StoredSilence | undefined, edit: Extract<SilenceEdit, { kind: 'update' }>, now: Date): CommandPlan<SilenceWrite> {
  const matchers = edit.matchers === undefined ? undefined : parseSilenceMatchers(edit.matchers);
  if (matchers && !matchers.ok) return invalid(matchers);
  const endsAt = edit.ends_at === undefined ? undefined : new Date(edit.ends_at);
  if (endsAt && endsAt.getTime() <= now.getTime()) {
    return invalid({ message: 'ends_at must be in the future; to end a silence now, expire it.', field: 'ends_at' });
  }
  if (!stored) return { refused: silenceNotFound(edit.id) };
  if (silenceState(stored, now) === 'expired') return refuse('conflict', 'silence_expired', `Silence ${edit.id} has expired; create a new one.`);
  if (endsAt) {
    const window = checkSilenceWindow(stored.starts_at, endsAt);
    if (!window.ok) return invalid(window);
  }
  if (!matchers && !endsAt && edit.comment === undefined) return unchanged();
  const update: SilenceUpdate = {
    id: stored.id,
    ...(matchers && { matchers: matchers.value }),
    ...(endsAt && { ends_at: endsAt }),
    ...(edit.comment !== undefined && { comment: edit.comment }),
    updated_at: now,
  };
  return { changes: { update }, events: [] };
}

/** The refusal of a silence id the project does not have. */
export function silenceNotFound(id: string): CommandRefusal {
  return refusal('not_found', 'silence_not_found', `Silence ${id} not found.`);
}

function invalid({ message, field }: { message: string; field?: string }): { refused: CommandRefusal } {
  return refuse('invalid', 'validation_failed', message, field);
}
