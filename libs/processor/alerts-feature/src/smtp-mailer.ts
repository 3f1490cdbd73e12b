import { AlertEmail, SendOutcome } from '@alert-ingestion/alerts-domain';
import { createTransport, Transporter } from 'nodemailer';

/** Sends alert emails; an outcome, never a throw, so a refusal is recorded like any other result. */
export interface AlertMailer {
  send(email: AlertEmail): Promise<SendOutcome>;
  close(): void;
}

export interface SmtpMailerOptions {
  /** `smtp://user:pass@host:587` or `smtps://...`, as nodemailer takes it (SMTP_URL). */
  url: string;
  /** The sender (EMAIL_FROM). */
  from: string;
  /** Longest wait for the connection, the greeting and each answer of the server. */
  timeoutMs: number;
}

/** Alert emails through nodemailer's SMTP transport: one connection per message, closed after it. */
export class SmtpMailer implements AlertMailer {
  private readonly transport: Transporter;

  constructor(private readonly options: SmtpMailerOptions) {
    this.transport = createTransport({
      url: options.url,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
    });
  }

  async send(email: AlertEmail): Promise<SendOutcome> {
    try {
      const info = (await this.transport.sendMail({ from: this.options.from, to: email.to, subject: email.subject, text: email.text, headers: email.headers })) as { messageId?: string };
      return { ok: true, messageId: info.messageId ?? `<${Date.now()}@alert-ingestion>` };
    } catch (error) {
      return { ok: false, error: smtpError(error) };
    }
  }

  close(): void {
    this.transport.close();
  }
}

/** What the server said (`550 5.1.1 ...`), or the connection's error (`connect ECONNREFUSED ...`). */
function smtpError(error: unknown): string {
  const failure = error as { response?: string; message?: string; code?: string };
  const text = failure.response ?? failure.message ?? String(error);
  return text.slice(0, 1000);
}
