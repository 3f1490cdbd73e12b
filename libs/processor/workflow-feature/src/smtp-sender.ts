import { AlertEmail, SendOutcome } from '@alert-ingestion/workflow-domain';
import { createTransport, Transporter } from 'nodemailer';

/**
 * Sends the workflow's email (alert emails; pages later); an outcome, never a throw, so a refusal
 * is recorded like any other result. Called outside every database transaction: the caller claimed
 * what it sends with a lease and records the outcome afterwards.
 */
export interface EmailSender {
  send(email: AlertEmail): Promise<SendOutcome>;
  close(): void;
}

export interface SmtpSenderOptions {
  /** `smtp://user:pass@host:587` or `smtps://...`, as nodemailer takes it (SMTP_URL). */
  url: string;
  /** The sender (EMAIL_FROM). */
  from: string;
  /** Longest wait for the connection, the greeting and each answer of the server. */
  timeoutMs: number;
}

/**
 * Email through nodemailer's SMTP transport: one connection per message, closed after it. The
 * message carries the Message-ID its caller gives (a bundle keeps its own across attempts), so a
 * message sent again after a crash is one message to the recipient's client.
 */
export class SmtpSender implements EmailSender {
  private readonly transport: Transporter;

  constructor(private readonly options: SmtpSenderOptions) {
    this.transport = createTransport({
      url: options.url,
      connectionTimeout: options.timeoutMs,
      greetingTimeout: options.timeoutMs,
      socketTimeout: options.timeoutMs,
    });
  }

  async send(email: AlertEmail): Promise<SendOutcome> {
    try {
      await this.transport.sendMail({ from: this.options.from, to: email.to, subject: email.subject, text: email.text, messageId: email.messageId, headers: email.headers });
      return { ok: true, messageId: email.messageId };
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
