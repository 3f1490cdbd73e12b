import { AlertsDatabase, CommandResult, runCommand } from '@alert-ingestion/alerts-data';
import { lostOncallEditRace, OncallEditAnswer, OncallSchedulesRepository } from '@alert-ingestion/oncall-data';
import { OncallEdit, planOncallEdit } from '@alert-ingestion/oncall-domain';
import { Injectable } from '@nestjs/common';

/**
 * Every edit of an on-call schedule, its rotations and overrides (and members who left) as one
 * command (libs/processor/README.md): the schedule locked and the database's clock read after the
 * lock, planOncallEdit, the rows written, in one transaction; a lost race for a unique name runs it again.
 */
@Injectable()
export class OncallEdits {
  constructor(
    private readonly database: AlertsDatabase,
    private readonly schedules: OncallSchedulesRepository,
  ) {}

  /** Runs `edit` on the project's schedule (`scheduleId` null: a new one). */
  run(projectId: string, scheduleId: string | null, edit: OncallEdit): Promise<CommandResult<OncallEditAnswer>> {
    return runCommand(this.database, {
      read: (transaction) => this.schedules.lockForEdit(transaction, projectId, scheduleId, edit),
      plan: (state) => planOncallEdit(state, edit, scheduleId),
      write: (transaction, changes, state) => this.schedules.writeEdit(transaction, changes, state, scheduleId, edit),
      lostRace: lostOncallEditRace,
    });
  }
}
