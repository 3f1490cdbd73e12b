import { AcceptedCommand, CommandPlan, CommandRefusal, isRefused } from '@alert-ingestion/alerts-domain';
import { activityStatements } from './activity-entries';
import { alertEventStatements } from './alert-event-outbox';
import { AlertsDatabase, ScriptedTransaction } from './alerts-database';

/**
 * One change of the processor (a person's command through the API, or the alert workflow acting on
 * a chunk of alert events), as `runCommand` runs it: `read` the state the change is decided on
 * (locking the rows it may change, FOR UPDATE), `plan` (the change's pure plan over that state, from
 * a domain library), `write` the accepted plan's changes and say the answer. The feature layer puts
 * the three together (libs/processor/README.md): the read and the write are the data layer's, with
 * no rule in them, and what the change decides lives in its plan, never here.
 */
export interface Command<State, Changes, Answer> {
  /** Reads the state; the transaction's first statement also begins it. */
  read(transaction: ScriptedTransaction): Promise<State>;
  plan(state: State): CommandPlan<Changes>;
  /**
   * Writes the accepted plan's changes (none: null) and gives the answer (the rows as they are now):
   * statements it runs itself (one needing a RETURNING), or `atCommit`, sent with the COMMIT in one round trip.
   */
  write(transaction: ScriptedTransaction, changes: Changes | null, state: State): CommandWrite<Answer> | Promise<CommandWrite<Answer>>;
  /** A failure that running the command again cures (a race lost to another transaction): it runs again and reads the winner's rows. */
  lostRace?: (error: unknown) => boolean;
}

/** What a command's write gives: its answer, and statements (values inlined) to send with the COMMIT. */
export interface CommandWrite<Answer> {
  answer: Answer;
  atCommit?: readonly string[];
}

export type CommandResult<Answer> = { answer: Answer } | { refused: CommandRefusal };

/**
 * Runs `command` in one transaction: BEGIN, read, plan, write, then the write's statements, the
 * plan's timeline entries and its alert events (into the outbox) with the COMMIT, in one round trip.
 * A refused plan writes nothing (the transaction rolls back, releasing the locks). A deadlock, or a
 * race the command names, rolls back and runs it again from its read.
 */
export function runCommand<State, Changes, Answer>(database: AlertsDatabase, command: Command<State, Changes, Answer>): Promise<CommandResult<Answer>> {
  return database.scriptedTransaction(async (transaction) => {
    const state = await command.read(transaction);
    const plan = command.plan(state);
    if (isRefused(plan)) return { refused: plan.refused };
    const accepted: AcceptedCommand<Changes> = plan;
    const written = await command.write(transaction, accepted.changes, state);
    await transaction.commit([...(written.atCommit ?? []), ...activityStatements(accepted.activity ?? []), ...alertEventStatements(accepted.events)]);
    return { answer: written.answer };
  }, command.lostRace);
}
