import { Principal } from '@alert-ingestion/access';
import { CreateContactMethodDto, CreateNotificationRuleDto } from '@alert-ingestion/alerts-api';
import { AlertsDatabase, runCommand } from '@alert-ingestion/alerts-data';
import { answered, refusalError } from '@alert-ingestion/alerts-feature';
import { ContactMethodView, NotificationRuleView, PagingSettingsView, TestPageView } from '@alert-ingestion/contracts';
import { ContactMethodRow, lostPagingEditRace, NotificationRuleRow, PagingEditAnswer, PagingRepository } from '@alert-ingestion/escalation-data';
import { contactMethodNotFound, PagingEdit, planPagingEdit, testPageEmail, testPageWebhookBody } from '@alert-ingestion/escalation-domain';
import { ForbiddenError } from '@alert-ingestion/http';
import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { webhookSecret } from './escalation-policies.service';
import { ESCALATION_OPTIONS, EscalationOptions } from './escalation.options';
import { PageSenders } from './page-senders';

/** The user a route of the caller's own acts for; the administrator token has none. */
function userOf(principal: Principal): { userId: string; username: string } {
  if (principal.kind !== 'user') throw new ForbiddenError('The administrator token belongs to no user: contact methods and notification rules are a user\'s own (use a personal access token).');
  return { userId: principal.userId.toString(), username: principal.username };
}

function methodView(row: ContactMethodRow, secret: string | null = null): ContactMethodView {
  return { id: Number(row.id), type: row.type, name: row.name, address: row.address, secret, created_at: row.created_at.toISOString() };
}

function ruleView(row: NotificationRuleRow): NotificationRuleView {
  return { id: Number(row.id), contact_method_id: Number(row.contact_method_id), after_minutes: row.after_minutes, created_at: row.created_at.toISOString() };
}

/**
 * Each user's own paging (docs/api-guide.md "Paging"): contact methods (a webhook's secret shown
 * once), notification rules, whether they want notices, and a test page. Every change is one
 * command (planPagingEdit) over the user's paging, locked.
 */
@Injectable()
export class PagingService {
  constructor(
    private readonly database: AlertsDatabase,
    private readonly paging: PagingRepository,
    private readonly senders: PageSenders,
    @Inject(ESCALATION_OPTIONS) private readonly options: EscalationOptions,
  ) {}

  async methods(principal: Principal): Promise<ContactMethodView[]> {
    return (await this.paging.methods(userOf(principal).userId)).map((row) => methodView(row));
  }

  async createMethod(principal: Principal, body: CreateContactMethodDto): Promise<ContactMethodView> {
    const { userId } = userOf(principal);
    const secret = webhookSecret();
    const answer = await this.edit(userId, { kind: 'create_method', type: body.type, name: body.name, address: body.address, secret });
    const row = (await this.paging.methods(userId)).find((method) => method.id === answer.contactMethodId);
    if (!row) throw refusalError(contactMethodNotFound(answer.contactMethodId ?? ''));
    return methodView(row, row.type === 'webhook' ? secret : null);
  }

  async deleteMethod(principal: Principal, methodId: string): Promise<void> {
    await this.edit(userOf(principal).userId, { kind: 'delete_method', id: methodId });
  }

  async rules(principal: Principal): Promise<NotificationRuleView[]> {
    return (await this.paging.rules(userOf(principal).userId)).map(ruleView);
  }

  async createRule(principal: Principal, body: CreateNotificationRuleDto): Promise<NotificationRuleView> {
    const { userId } = userOf(principal);
    const answer = await this.edit(userId, { kind: 'create_rule', contactMethodId: body.contact_method_id, afterMinutes: body.after_minutes });
    return ruleView((await this.paging.rules(userId)).find((rule) => rule.id === answer.notificationRuleId)!);
  }

  async deleteRule(principal: Principal, ruleId: string): Promise<void> {
    await this.edit(userOf(principal).userId, { kind: 'delete_rule', id: ruleId });
  }

  async settings(principal: Principal): Promise<PagingSettingsView> {
    return { status_notices: await this.paging.statusNotices(userOf(principal).userId) };
  }

  async updateSettings(principal: Principal, body: PagingSettingsView): Promise<PagingSettingsView> {
    const { userId } = userOf(principal);
    await this.edit(userId, { kind: 'settings', statusNotices: body.status_notices });
    return { status_notices: await this.paging.statusNotices(userId) };
  }

  /** Sends a test page by one of the caller's contact methods now (signed as a page is), and says whether it went. */
  async testPage(principal: Principal, methodId: string): Promise<TestPageView> {
    const { userId, username } = userOf(principal);
    const method = await this.paging.methodWithSecret(userId, methodId);
    if (!method) throw refusalError(contactMethodNotFound(methodId));
    const key = randomUUID();
    const email = this.options.email;
    const outcome =
      method.type === 'email'
        ? this.senders.email && email
          ? await this.senders.email.send(testPageEmail(method.address, username, key, email.from))
          : { ok: false as const, error: 'The service sends no email (no SMTP_URL).' }
        : await this.senders.post(method.address, method.secret, key, 'test', testPageWebhookBody({ id: userId, username }, key));
    return outcome.ok ? { sent: true, error: null } : { sent: false, error: outcome.error };
  }

  private async edit(userId: string, edit: PagingEdit): Promise<PagingEditAnswer> {
    return answered(
      await runCommand(this.database, {
        read: (transaction) => this.paging.lockForEdit(transaction, userId),
        plan: (state) => planPagingEdit(state, edit),
        write: async (transaction, changes) => ({ answer: await this.paging.writeEdit(transaction, userId, changes) }),
        lostRace: lostPagingEditRace,
      }),
    );
  }
}
