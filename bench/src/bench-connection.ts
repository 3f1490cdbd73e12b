import { connect, Socket } from 'node:net';

interface Waiting {
  resolve: (status: number) => void;
  reject: (error: Error) => void;
}

const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * One keep-alive HTTP/1.1 connection of the load generator: one POST at a time, the request head
 * prepared once, the response read up to its Content-Length and reduced to its status code.
 *
 * The benchmark runs on the machine it measures, so every microsecond it spends is taken from the
 * system under test; node:http's client (agent, header objects, parser callbacks) cost about three
 * times as much per request. The gateway always answers with a Content-Length.
 */
export class BenchConnection {
  private socket: Socket | undefined;
  private received: Buffer = Buffer.alloc(0);
  private waiting: Waiting | undefined;
  private readonly head: string;
  /** The Server-Timing header of the last answer (the gateway's hops), when it had one. */
  serverTiming: string | undefined;

  constructor(
    private readonly url: URL,
    headers: Record<string, string>,
  ) {
    const lines = [`POST ${url.pathname}${url.search} HTTP/1.1`, `Host: ${url.host}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
    this.head = `${lines.join('\r\n')}\r\nContent-Length: `;
  }

  /** Sends the body (with `headers` of this request only, if any) and resolves with the response's status code. */
  post(body: string, headers?: Record<string, string>): Promise<number> {
    if (this.waiting) return Promise.reject(new Error('BenchConnection sends one request at a time'));
    const socket = this.socket ?? this.open();
    return new Promise<number>((resolve, reject) => {
      this.waiting = { resolve, reject };
      const own = headers ? Object.entries(headers).map(([name, value]) => `\r\n${name}: ${value}`).join('') : '';
      socket.write(`${this.head}${Buffer.byteLength(body)}${own}\r\n\r\n${body}`);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }

  private open(): Socket {
    const socket = connect({ host: this.url.hostname, port: Number(this.url.port || 80), noDelay: true });
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    const fail = (error: Error) => {
      if (this.socket === socket) this.socket = undefined;
      this.received = Buffer.alloc(0);
      this.settle()?.reject(error);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('the gateway closed the connection')));
    this.socket = socket;
    return socket;
  }

  private onData(chunk: Buffer): void {
    this.received = this.received.length === 0 ? chunk : Buffer.concat([this.received, chunk]);
    const headEnd = this.received.indexOf(HEAD_END);
    if (headEnd < 0) return;
    const head = this.received.toString('latin1', 0, headEnd);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) {
      this.settle()?.reject(new Error(`response without Content-Length: ${head.split('\r\n')[0]}`));
      this.close();
      return;
    }
    const end = headEnd + HEAD_END.length + Number(length[1]);
    if (this.received.length < end) return;
    this.received = this.received.subarray(end);
    this.serverTiming = /\r\nserver-timing: *([^\r]*)/i.exec(head)?.[1];
    // "HTTP/1.1 200 OK": the status code is characters 9 to 11.
    this.settle()?.resolve(Number(head.slice(9, 12)));
  }

  private settle(): Waiting | undefined {
    const waiting = this.waiting;
    this.waiting = undefined;
    return waiting;
  }
}
