import { PageDelivery, pageEmail, pageEvent, pageWebhookBody, pageWebhookHeaders } from '@alert-ingestion/escalation-domain';
import { SendOutcome } from '@alert-ingestion/workflow-domain';
import { EmailSender, SmtpSender } from '@alert-ingestion/workflow-feature';
import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { ESCALATION_OPTIONS, EscalationOptions } from './escalation.options';
import { HttpWebhookSender, WebhookSender } from './webhook-sender';

/**
 * How pages go out, outside every transaction: email through the workflow's EmailSender (the same
 * SMTP settings as alert emails), webhooks through the webhook sender, signed with their target's
 * secret. An outcome, never a throw.
 */
@Injectable()
export class PageSenders implements OnModuleDestroy {
  readonly email?: EmailSender;
  readonly webhook: WebhookSender;

  constructor(@Inject(ESCALATION_OPTIONS) private readonly options: EscalationOptions) {
    const email = options.email;
    if (email) this.email = new SmtpSender({ url: email.smtpUrl, from: email.from, timeoutMs: email.smtpTimeoutMs });
    this.webhook = new HttpWebhookSender(options.webhook);
  }

  /** Sends one page (or notice) as its method says. */
  send(delivery: PageDelivery): Promise<SendOutcome> {
    const { page } = delivery;
    if (page.method === 'email') {
      const email = this.options.email;
      if (!this.email || !email) return Promise.resolve({ ok: false, error: 'The service sends no email (no SMTP_URL).' });
      return this.email.send(pageEmail(delivery, this.options.consoleUrl, email.from));
    }
    return this.post(page.address, delivery.secret, page.idempotencyKey, pageEvent(page), pageWebhookBody(delivery, this.options.consoleUrl));
  }

  /** A signed webhook POST of `body` (a page's, a notice's or a test page's). */
  post(url: string, secret: string | null, idempotencyKey: string, event: ReturnType<typeof pageEvent> | 'test', body: unknown): Promise<SendOutcome> {
    if (secret === null) return Promise.resolve({ ok: false, error: 'The webhook has no signing secret any more (its contact method or policy target was removed).' });
    const bytes = Buffer.from(JSON.stringify(body));
    return this.webhook.send({ url, body: bytes, headers: pageWebhookHeaders(bytes, secret, idempotencyKey, event, Date.now()) });
  }

  onModuleDestroy(): void {
    this.email?.close();
  }
}
