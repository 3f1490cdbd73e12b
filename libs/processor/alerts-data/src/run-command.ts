import { AcceptedCommand, CommandPlan, CommandRefusal, isRefused } from '@alert-ingestion/alerts-domain';
import { PoolClient } from 'pg';
import { activityStatements } from './activity-entries';
import { alertEventStatements } from './alert-event-outbox';
import { AlertsDatabase } from './alerts-database';

/**
 * One command of the processor's API (alerts-domain's command-plan.ts), as the data layer runs it:
 * `read` the state the command is decided on (locking the rows it may change, FOR UPDATE), `plan`
 * (the command's pure plan over that state), `write` the plan's changes and answer. Every command
 * follows this shape; what it decides lives in its plan, never here.
 */
export interface Command<State, Changes, Answer> {
  read(client: PoolClient): Promise<State>;
  plan(state: State): CommandPlan<Changes>;
  /** Writes the accepted plan's changes (none: null) and resolves the command's answer (the row as it is now). */
  write(client: PoolClient, changes: Changes | null, state: State): Promise<Answer>;
  /** A failure that running the command again cures (a race lost to another transaction): it runs again and reads the winner's rows. */
  lostRace?: (error: unknown) => boolean;
}

export type CommandResult<Answer> = { answer: Answer } | { refused: CommandRefusal };

/**
 * Runs `command` in one transaction: BEGIN, read, plan, write, then the plan's timeline entries and
 * its alert events into the outbox together with COMMIT, in the order the plan gives them. A refused plan writes nothing
 * (the transaction rolls back, releasing the locks). A deadlock, or a race the command names, rolls
 * back and runs it again from its read.
 */
export function runCommand<State, Changes, Answer>(database: AlertsDatabase, command: Command<State, Changes, Answer>): Promise<CommandResult<Answer>> {
  return database.scriptedTransaction(async (transaction) => {
    await transaction.step([]);
    const state = await command.read(transaction.client);
    const plan = command.plan(state);
    if (isRefused(plan)) return { refused: plan.refused };
    const accepted: AcceptedCommand<Changes> = plan;
    const answer = await command.write(transaction.client, accepted.changes, state);
    await transaction.commit([...activityStatements(accepted.activity ?? []), ...alertEventStatements(accepted.events)]);
    return { answer };
  }, command.lostRace);
}
