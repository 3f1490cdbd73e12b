import { AccessReader } from '@alert-ingestion/access';
import { UpdateEscalationPolicyDto } from '@alert-ingestion/alerts-api';
import { AlertsDatabase, runCommand } from '@alert-ingestion/alerts-data';
import { answered, refusalError } from '@alert-ingestion/alerts-feature';
import { EscalationPolicyView, WebhookSecretView } from '@alert-ingestion/contracts';
import { EscalationPoliciesRepository, PagingRepository } from '@alert-ingestion/escalation-data';
import { checkPolicy, EscalationPolicy, planPolicyEdit, PolicyEdit, policyScheduleIds, policyView, StoredPolicy, UserPaging, withCurrentNames } from '@alert-ingestion/escalation-domain';
import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';

/** A webhook target's signing secret: 32 random bytes (256 bits), base64url. */
export function webhookSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Escalation policies (docs/api-guide.md "Escalation policies"): every change is one command
 * (planPolicyEdit) with the project's on-call setup locked; the answer shows the rules in words, the
 * members the policy can page who have no contact method, and the secrets of webhook URLs named for
 * the first time (shown once).
 */
@Injectable()
export class EscalationPoliciesService {
  constructor(
    private readonly database: AlertsDatabase,
    private readonly policies: EscalationPoliciesRepository,
    private readonly paging: PagingRepository,
    private readonly access: AccessReader,
  ) {}

  async get(projectId: string): Promise<EscalationPolicyView> {
    return this.view(projectId, await this.policies.find(projectId));
  }

  async put(projectId: string, body: UpdateEscalationPolicyDto): Promise<EscalationPolicyView> {
    const webhooks = body.rules.flatMap((rule) => rule.targets.filter((target) => target.type === 'webhook'));
    const changes = await this.edit(projectId, { kind: 'put', request: body, secrets: webhooks.map(() => webhookSecret()) });
    return this.view(projectId, await this.policies.find(projectId), changes?.secrets);
  }

  /** What `body` would be as the policy, checked as a PUT is; nothing is stored. */
  async preview(projectId: string, body: UpdateEscalationPolicyDto): Promise<EscalationPolicyView> {
    const [schedules, members] = await Promise.all([this.policies.schedules(projectId), this.members(projectId)]);
    const checked = checkPolicy(body, { schedules, members });
    if ('refused' in checked) throw refusalError(checked.refused);
    return this.view(projectId, undefined, [], checked.policy);
  }

  async remove(projectId: string): Promise<void> {
    await this.edit(projectId, { kind: 'delete' });
  }

  async resetSecret(projectId: string, url: string): Promise<WebhookSecretView> {
    const changes = await this.edit(projectId, { kind: 'reset_secret', url, secret: webhookSecret() });
    return changes!.secrets[0];
  }

  private async edit(projectId: string, edit: PolicyEdit) {
    const members = await this.members(projectId);
    return answered(
      await runCommand(this.database, {
        read: (transaction) => this.policies.lockForEdit(transaction, projectId, members),
        plan: (state) => planPolicyEdit(state, edit),
        write: async (transaction, changes) => {
          await this.policies.write(transaction, projectId, changes);
          return { answer: changes };
        },
      }),
    );
  }

  /** The project's members, id to username. */
  members(projectId: string): Promise<Map<string, string>> {
    return this.access.projectMembers(BigInt(projectId), 'guest').then((members) => new Map(members.map((member) => [member.id, member.username])));
  }

  /** The members a policy can page (its users, and everyone in its schedules' rotations and overrides), with how each is paged (none: no contact method). */
  async pageable(policy: EscalationPolicy | undefined, members: ReadonlyMap<string, string>): Promise<{ userIds: string[]; paging: Map<string, UserPaging> }> {
    const users = policy ? policy.rules.flatMap((rule) => rule.targets.flatMap((target) => (target.type === 'user' ? [target.userId] : []))) : [];
    const participants = policy ? await this.policies.scheduleParticipants(policyScheduleIds(policy)) : [];
    const userIds = [...new Set([...users, ...participants])].filter((id) => members.has(id));
    return { userIds, paging: await this.paging.paging(userIds) };
  }

  /** The policy as the API shows it (a preview's instead of the stored one), with the members it can page who have no contact method. */
  private async view(projectId: string, stored: StoredPolicy | undefined, secrets: WebhookSecretView[] = [], preview?: EscalationPolicy): Promise<EscalationPolicyView> {
    const [schedules, members] = await Promise.all([this.policies.schedules(projectId), this.members(projectId)]);
    const policy = preview ?? stored?.policy;
    const shown = policy && withCurrentNames(policy, { schedules, members });
    const { userIds, paging } = await this.pageable(shown, members);
    const unreachable = userIds
      .filter((id) => !paging.has(id))
      .map((id) => ({ id: Number(id), username: members.get(id) ?? '' }))
      .sort((a, b) => a.username.localeCompare(b.username));
    return policyView(stored && shown && { ...stored, policy: shown }, (id) => schedules.has(id), unreachable, secrets, preview && shown);
  }
}
