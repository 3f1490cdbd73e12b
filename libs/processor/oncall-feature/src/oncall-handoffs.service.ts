import { AccessReader } from '@alert-ingestion/access';
import { AlertsDatabase, runCommand } from '@alert-ingestion/alerts-data';
import { unchanged } from '@alert-ingestion/alerts-domain';
import { answered, RecurringJob } from '@alert-ingestion/alerts-feature';
import { HandoffPublisherLeadership, OncallHandoffsRepository, PublishOutcome } from '@alert-ingestion/oncall-data';
import { HandoffPlan, HandoffState, planHandoffs } from '@alert-ingestion/oncall-domain';
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { OncallEdits } from './oncall-edits';
import { ONCALL_FEATURE_OPTIONS, OncallFeatureOptions } from './oncall-feature.options';

/** Schedules published per round, soonest due first (the rest in the next round). */
const SCHEDULES_PER_ROUND = 100;

/**
 * The handoff publisher: every ONCALL_HANDOFF_CHECK_MS, on the processor that leads it (a PostgreSQL
 * session advisory lock, HandoffPublisherLeadership), it takes members who left their project out of
 * every rotation (noted on it) and publishes the changes of who is on call of every schedule that is
 * due (its next change of shift has come, or it was edited) as `oncall.shift_started` events: each
 * schedule in one transaction that writes the events to the outbox and moves its progress, so each
 * change is published once across processors and restarts. The outbox relay (OncallEventRelayService)
 * publishes them to oncall.events.v1.
 */
@Injectable()
export class OncallHandoffsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly job: RecurringJob;
  private readonly leadership: HandoffPublisherLeadership;

  constructor(
    private readonly database: AlertsDatabase,
    private readonly handoffs: OncallHandoffsRepository,
    private readonly edits: OncallEdits,
    private readonly access: AccessReader,
    @Inject(ONCALL_FEATURE_OPTIONS) private readonly options: OncallFeatureOptions,
  ) {
    this.leadership = new HandoffPublisherLeadership(options.databaseUrl);
    this.job = new RecurringJob(options.handoffCheckIntervalMs, new Logger(OncallHandoffsService.name), 'Publishing changes of who is on call failed', async () => {
      const { removed, published } = await this.round();
      const parts = [removed > 0 && `took ${removed} departed ${removed === 1 ? 'member' : 'members'} out of rotations`, published > 0 && `published ${published} on-call ${published === 1 ? 'change' : 'changes'}`];
      const done = parts.filter(Boolean).join(', ');
      return done === '' ? undefined : done[0].toUpperCase() + done.slice(1);
    });
  }

  onApplicationBootstrap(): void {
    if (this.options.publishes) this.job.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.job.stop();
    await this.leadership.release();
  }

  /** One round, if this instance leads: departed members out, then every due schedule published. */
  async round(): Promise<{ removed: number; published: number }> {
    if (!(await this.leadership.lead())) return { removed: 0, published: 0 };
    const participants = await this.handoffs.participants();
    const members = await this.access.memberIdsByProject(participants.map((schedule) => schedule.projectId));
    let removed = 0;
    for (const schedule of participants) {
      const current = members.get(schedule.projectId) ?? new Set<string>();
      if (schedule.userIds.every((userId) => current.has(userId))) continue;
      answered(await this.edits.run(schedule.projectId, schedule.scheduleId, { kind: 'remove_departed', members: current }));
      removed += schedule.userIds.filter((userId) => !current.has(userId)).length;
    }
    let published = 0;
    const due = await this.handoffs.dueSchedules(SCHEDULES_PER_ROUND);
    const dueMembers = await this.access.memberIdsByProject(due.map((schedule) => schedule.projectId));
    for (const schedule of due) {
      const outcome = await this.publish(schedule.id, dueMembers.get(schedule.projectId));
      if (outcome !== 'gone') published += outcome.published;
    }
    return { removed, published };
  }

  /**
   * Publishes a schedule's changes of who is on call since it was last published, as one command:
   * the schedule locked, planHandoffs, the events into the outbox and the progress moved with the COMMIT.
   */
  private async publish(scheduleId: string, members?: ReadonlySet<string>): Promise<PublishOutcome> {
    const result = await runCommand<HandoffState | undefined, HandoffPlan, PublishOutcome>(this.database, {
      read: (transaction) => this.handoffs.lockForPublishing(transaction, scheduleId, members),
      plan: (state) => (state ? { changes: planHandoffs(state), events: [] } : unchanged()),
      write: (transaction, plan) => (plan ? this.handoffs.writePublishing(transaction, scheduleId, plan) : { answer: 'gone' }),
    });
    return answered(result);
  }
}
