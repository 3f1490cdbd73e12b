import { ActivityEntryOut } from './activity';
import { AlertEventOut } from './stored-alert';

/**
 * Commands: what a person asks of the processor through its API (change an alert's status, create,
 * update or expire a silence; later: assign an alert, add a note, open or close an incident). Each
 * is decided, like a batch of payloads (planAlertBatch), by a pure plan over the state the data layer
 * read and locked for it, `plan(stored state, request, now) -> CommandPlan`, and the data layer writes
 * the accepted plan in the same transaction (runCommand in alerts-data). Everything a command decides
 * is in its plan, so its unit test needs no database.
 */

/**
 * Why a command is refused, in the domain's words. The HTTP status follows from `kind`, in one place
 * (alerts-feature's refusalError): `invalid` 400, `not_found` 404, `conflict` 409. `code` is the
 * stable `error` clients branch on; `field` names the request field an `invalid` refusal is about,
 * as the client writes it (`ends_at`, `matchers[0].value`), when it is about one.
 */
export interface CommandRefusal {
  kind: 'invalid' | 'not_found' | 'conflict';
  code: string;
  message: string;
  field?: string;
}

/** A command the plan accepts: what to write, all in the command's one commit. */
export interface AcceptedCommand<Changes> {
  /** The rows to write, in the command's own shape; null when the command changes nothing (it asks for what already is). */
  changes: Changes | null;
  /** The alert events of the changes, one per change in the order they happen: written to the outbox in the same commit. */
  events: AlertEventOut[];
  /** The timeline entries that record the changes (alerts' or incidents'): appended in the same commit. */
  activity?: ActivityEntryOut[];
}

/** A command's decision: accepted with its writes, or refused (nothing is written). */
export type CommandPlan<Changes> = AcceptedCommand<Changes> | { refused: CommandRefusal };

/** Whether a plan (a CommandPlan, or any decision that may be a refusal) refused. */
export function isRefused<Plan extends object>(plan: Plan | { refused: CommandRefusal }): plan is { refused: CommandRefusal } {
  return 'refused' in plan;
}

export function refusal(kind: CommandRefusal['kind'], code: string, message: string, field?: string): CommandRefusal {
  return { kind, code, message, ...(field !== undefined && { field }) };
}

/** The plan of a refused command. */
export function refuse(kind: CommandRefusal['kind'], code: string, message: string, field?: string): { refused: CommandRefusal } {
  return { refused: refusal(kind, code, message, field) };
}

/** The plan of a command that changes nothing. */
export function unchanged(): AcceptedCommand<never> {
  return { changes: null, events: [] };
}
