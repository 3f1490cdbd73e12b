import { AlertsDatabase, runCommand, ScriptedTransaction } from '@alert-ingestion/alerts-data';
import { OncallConfigDocument, OncallConfigResult } from '@alert-ingestion/contracts';
import { EscalationPoliciesRepository, lockOncallSetup, PagingRepository, readPolicy } from '@alert-ingestion/escalation-data';
import {
  decideOncallConfigPut,
  oncallConfigDocument,
  oncallConfigEtag,
  OncallConfigDecision,
  OncallConfigStep,
  OncallSetup,
  planPolicyEdit,
  policyRequestByIds,
  userDocument,
} from '@alert-ingestion/escalation-domain';
import { InvalidDocumentError, PreconditionFailedError } from '@alert-ingestion/http';
import { lostOncallEditRace, OncallSchedulesRepository } from '@alert-ingestion/oncall-data';
import { planOncallEdit } from '@alert-ingestion/oncall-domain';
import { Injectable } from '@nestjs/common';
import { EscalationPoliciesService, webhookSecret } from './escalation-policies.service';

/** What `PUT .../oncall_config` asks besides the document. */
export interface OncallConfigPut {
  /** Plan only, apply nothing (`dry_run=true`). */
  dryRun: boolean;
  /** The `If-Match` header: the version the document was written against. */
  ifMatch?: string;
}

/**
 * A project's whole on-call setup as one document (docs/api-guide.md "On-call setup as code"): GET
 * gives it with its version (ETag); PUT applies a document as one command, with the project's
 * on-call setup locked: decideOncallConfigPut checks it (every problem with its JSON pointer, 412
 * for a stale If-Match) and plans it, and the plan's steps run in the same transaction as the
 * on-call rooms' own edits (each decided by planOncallEdit on the schedule it locks) and the
 * policy's (planPolicyEdit). Anything refused rolls the whole document back.
 */
@Injectable()
export class OncallConfigService {
  constructor(
    private readonly database: AlertsDatabase,
    private readonly schedules: OncallSchedulesRepository,
    private readonly policies: EscalationPoliciesRepository,
    private readonly policiesService: EscalationPoliciesService,
    private readonly paging: PagingRepository,
  ) {}

  /** The document, with how the members the policy can page are paged, and its version. */
  async document(projectId: string): Promise<{ document: OncallConfigDocument; etag: string }> {
    const members = await this.policiesService.members(projectId);
    const setup = await this.database.scriptedTransaction(async (transaction) => {
      const read = await readSetup(transaction, this.schedules, projectId, members);
      await transaction.commit([]);
      return read;
    });
    const { userIds, paging } = await this.policiesService.pageable(setup.policy?.policy, members);
    const notices = await this.paging.noticeUsers(userIds);
    const users = userIds.map((id) => userDocument(members.get(id) ?? '', paging.get(id), notices.has(id)));
    const document = oncallConfigDocument(setup, users);
    return { document, etag: oncallConfigEtag(document) };
  }

  /** Applies (or with a dry run, plans) a document; answers the plan and the version after it. */
  async put(projectId: string, input: unknown, options: OncallConfigPut): Promise<OncallConfigResult> {
    const members = await this.policiesService.members(projectId);
    const result = await runCommand<OncallSetup, OncallConfigDecision, OncallConfigResult>(this.database, {
      read: async (transaction) => {
        await lockOncallSetup(transaction, projectId);
        return readSetup(transaction, this.schedules, projectId, members);
      },
      plan: (setup) => ({ changes: decideOncallConfigPut(setup, input, options.ifMatch, projectId), events: [] }),
      write: async (transaction, decision, setup) => {
        if (!decision || decision.kind === 'stale') throw new PreconditionFailedError(`The on-call setup is at version ${decision?.etag}: the document was written against another (If-Match).`);
        if (decision.kind === 'invalid') throw new InvalidDocumentError(`The document has ${decision.errors.length} ${decision.errors.length === 1 ? 'problem' : 'problems'}: nothing was applied.`, decision.errors);
        const changes = decision.plan.changes;
        if (options.dryRun || decision.plan.steps.length === 0) return { answer: { applied: !options.dryRun, etag: decision.etag, changes } };
        await this.apply(transaction, projectId, setup, decision.plan.steps);
        const after = oncallConfigDocument(await readSetup(transaction, this.schedules, projectId, members));
        return { answer: { applied: true, etag: oncallConfigEtag(after), changes } };
      },
      lostRace: lostOncallEditRace,
    });
    if ('refused' in result) throw new Error('an on-call setup document is never refused by its plan');
    return result.answer;
  }

  /** Runs the plan's steps in the command's transaction: each an edit of the on-call rooms or of the policy, decided by its own plan on what it locks. */
  private async apply(transaction: ScriptedTransaction, projectId: string, setup: OncallSetup, steps: readonly OncallConfigStep[]): Promise<void> {
    const scheduleIds = new Map(setup.schedules.map(({ schedule }) => [schedule.name, schedule.id]));
    for (const step of steps) {
      if (step.kind === 'policy') {
        const userIds = new Map([...setup.members].map(([id, username]) => [username, id]));
        const edit = step.request
          ? { kind: 'put' as const, request: policyRequestByIds(step.request, scheduleIds, userIds), secrets: step.request.rules.flatMap((rule) => rule.targets).map(() => webhookSecret()) }
          : { kind: 'delete' as const };
        const state = await this.policies.lockForEdit(transaction, projectId, setup.members);
        const plan = planPolicyEdit(state, edit);
        if ('refused' in plan) throw new InvalidDocumentError('The escalation policy was refused: nothing was applied.', [{ pointer: '/escalation_policy', message: plan.refused.message }]);
        await this.policies.write(transaction, projectId, plan.changes);
        continue;
      }
      const scheduleId = step.kind === 'schedule' ? step.scheduleId : (step.scheduleId ?? scheduleIds.get(step.scheduleName) ?? null);
      const state = await this.schedules.lockForEdit(transaction, projectId, scheduleId, step.edit);
      const plan = planOncallEdit(state, step.edit, scheduleId);
      if ('refused' in plan) {
        const at = plan.refused.field ? `${step.pointer}/${plan.refused.field.replace(/\[(\d+)\]/g, '/$1').replace(/\./g, '/').replace('participant_ids', 'participants')}` : step.pointer;
        throw new InvalidDocumentError(`${plan.refused.message} Nothing was applied.`, [{ pointer: at, message: plan.refused.message }]);
      }
      const { answer } = await this.schedules.writeEdit(transaction, plan.changes, state, scheduleId, step.edit);
      if (step.kind === 'schedule' && step.edit.kind === 'create_schedule') scheduleIds.set(step.name, answer.scheduleId);
    }
  }
}

/** The setup as it is, in the caller's transaction: the project's schedules with their live rotations, and its policy. */
async function readSetup(transaction: ScriptedTransaction, schedules: OncallSchedulesRepository, projectId: string, members: ReadonlyMap<string, string>): Promise<OncallSetup> {
  const stored = await schedules.all(projectId, transaction);
  const [rotations, policy] = await Promise.all([schedules.liveRotationsOf(stored.map((schedule) => schedule.id), transaction), readPolicy(transaction, projectId)]);
  return { schedules: stored.map((schedule) => ({ schedule, rotations: rotations.get(schedule.id) ?? [] })), policy, members };
}
