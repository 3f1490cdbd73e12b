import { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message the test SMTP server accepted, parsed enough for specs to read (plain text, ASCII headers). */
export interface ReceivedEmail {
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  from: string;
  /** Header names lower-case, folded lines joined. */
  headers: Record<string, string>;
  subject: string;
  /** The body, quoted-printable decoded. */
  text: string;
  receivedAt: Date;
}

/** A message the server holds: received whole, not yet answered (the sender still waits for its 250). */
export interface HeldEmail {
  /** Resolves with the message once it has arrived whole. */
  arrived: Promise<ReceivedEmail>;
  /** Answers the sender (whether it still listens or not). */
  release(): void;
}

/**
 * A real SMTP server in the test's process (the smtp-server package) on an ephemeral port, keeping
 * what it receives. `refuse` makes it answer a recipient with a permanent refusal (550); `stop` and
 * `start` again on the same port play an outage; `hold` keeps the next message's acceptance back,
 * so a test can stop the sender between the server's having it and its answer.
 */
export class TestSmtpServer {
  readonly received: ReceivedEmail[] = [];
  /** Recipients (lower-case) answered `550 5.1.1 Mailbox unavailable`. */
  readonly refused = new Set<string>();
  private held?: { arrived: (email: ReceivedEmail) => void; released: Promise<void> };
  private server?: SMTPServer;
  private boundPort = 0;

  get port(): number {
    return this.boundPort;
  }

  /** `smtp://127.0.0.1:<port>` for SMTP_URL. */
  get url(): string {
    return `smtp://127.0.0.1:${this.boundPort}`;
  }

  /** Listens on the port it had before (after `stop`), or on a new ephemeral one. */
  async start(): Promise<this> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onRcptTo: (address, _session, callback) => {
        if (this.refused.has(address.address.toLowerCase())) {
          const refusal = new Error('5.1.1 Mailbox unavailable') as Error & { responseCode: number };
          refusal.responseCode = 550;
          callback(refusal);
          return;
        }
        callback();
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const email = parseEmail(Buffer.concat(chunks).toString('utf8'), session.envelope.rcptTo.map((rcpt) => rcpt.address), session.envelope.mailFrom ? session.envelope.mailFrom.address : '');
          this.received.push(email);
          const held = this.held;
          this.held = undefined;
          if (!held) return callback();
          held.arrived(email);
          void held.released.then(() => callback());
        });
      },
    });
    server.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(this.boundPort, '127.0.0.1', () => resolve());
    });
    this.boundPort = (server.server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  /** Stops listening and drops open connections (an outage); `start` brings it back on the same port. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Holds the acceptance of the next message that arrives whole, until released. */
  hold(): HeldEmail {
    let arrived!: (email: ReceivedEmail) => void;
    let release!: () => void;
    const held = { arrived: new Promise<ReceivedEmail>((resolve) => (arrived = resolve)), released: new Promise<void>((resolve) => (release = resolve)) };
    this.held = { arrived, released: held.released };
    return { arrived: held.arrived, release };
  }

  /** The messages one address received. */
  to(address: string): ReceivedEmail[] {
    return this.received.filter((email) => email.to.includes(address.toLowerCase()));
  }
}

function parseEmail(raw: string, to: string[], from: string): ReceivedEmail {
  const split = raw.indexOf('\r\n\r\n');
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split + 4);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const quotedPrintable = /quoted-printable/i.test(headers['content-transfer-encoding'] ?? '');
  const text = quotedPrintable
    ? Buffer.from(body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8')
    : body;
  return { to: to.map((address) => address.toLowerCase()), from, headers, subject: headers['subject'] ?? '', text: text.replace(/\r\n/g, '\n'), receivedAt: new Date() };
}
