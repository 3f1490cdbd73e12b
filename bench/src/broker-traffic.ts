import { execFileSync } from 'node:child_process';

/**
 * Bytes on the broker's TCP connections, counted by the kernel on the broker's own sockets (`ss -ti`:
 * `bytes_acked`, what the broker sent and its client acknowledged, and `bytes_received`): every Kafka
 * request and answer, headers and framing included, with no help from the broker (no JMX).
 */

/** One established TCP socket as `ss -tinpH` shows it. */
export interface TcpSocket {
  /** address:port, IPv4-mapped addresses as plain IPv4. */
  local: string;
  peer: string;
  /** The process holding it, when `ss` may see it (one of the user's own). */
  pid?: number;
  /** Bytes sent and acknowledged by the peer. */
  bytesAcked: number;
  bytesReceived: number;
}

/** One connection to the broker, seen from the broker's side, with the client process when known. */
export interface BrokerConnection {
  /** `<broker address>-<client address>`: the same for the connection's whole life. */
  id: string;
  clientPid?: number;
  /** Bytes the broker sent on it (answers: fetched records, produce acknowledgements, metadata). */
  sent: number;
  /** Bytes the broker received on it (requests: produced records, fetch requests, commits). */
  received: number;
}

/** What the broker sent and received, by kind of client, between two looks at its connections. */
export interface BrokerTraffic {
  byKind: Map<string, { sent: number; received: number }>;
  /** Connections open at the first look and closed at the second: their last bytes are not counted. */
  closed: number;
}

/** `[::ffff:127.0.0.1]:9092` and `127.0.0.1:9092` alike as `127.0.0.1:9092`. */
function endpoint(text: string): string {
  const colon = text.lastIndexOf(':');
  const address = text
    .slice(0, colon)
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, '$1');
  return `${address}:${text.slice(colon + 1)}`;
}

function counter(info: string, name: string): number {
  return Number(new RegExp(`\\b${name}:(\\d+)`).exec(info)?.[1] ?? 0);
}

/**
 * The sockets of `ss -tinpH state established ...`: a line per socket (Recv-Q, Send-Q, local and peer
 * address, then `users:((...pid=N...))` when the process is visible), followed by indented lines of
 * TCP information holding the byte counters.
 */
export function parseSsSockets(output: string): TcpSocket[] {
  const sockets: TcpSocket[] = [];
  for (const line of output.split('\n')) {
    if (line.trim() === '') continue;
    const last = sockets[sockets.length - 1];
    if (/^\s/.test(line)) {
      if (last) {
        last.bytesAcked += counter(line, 'bytes_acked');
        last.bytesReceived += counter(line, 'bytes_received');
      }
      continue;
    }
    const endpoints = line
      .trim()
      .split(/\s+/)
      .filter((field) => /^(\[[^\]]*\]|[^\s[\]()]+):\d+$/.test(field));
    if (endpoints.length < 2) continue;
    const pid = /\bpid=(\d+)/.exec(line)?.[1];
    sockets.push({ local: endpoint(endpoints[0]), peer: endpoint(endpoints[1]), pid: pid === undefined ? undefined : Number(pid), bytesAcked: 0, bytesReceived: 0 });
  }
  return sockets;
}

/**
 * The broker's side of every connection to its listener on `port`, each with the pid of the client
 * socket at its other end (the socket whose local address is the broker socket's peer), when visible.
 */
export function brokerConnections(sockets: readonly TcpSocket[], port: number): BrokerConnection[] {
  const clientPids = new Map(sockets.filter((socket) => socket.pid !== undefined).map((socket) => [`${socket.local}-${socket.peer}`, socket.pid]));
  return sockets
    .filter((socket) => socket.local.endsWith(`:${port}`))
    .map((socket) => ({
      id: `${socket.local}-${socket.peer}`,
      clientPid: clientPids.get(`${socket.peer}-${socket.local}`),
      sent: socket.bytesAcked,
      received: socket.bytesReceived,
    }));
}

/**
 * The bytes each connection carried between `before` and `after`, summed by the kind `kindOf` names
 * for its client pid (undefined when the pid is not visible). A connection opened in between counts
 * from zero; one closed in between is left out, and counted in `closed`.
 */
export function brokerTraffic(before: readonly BrokerConnection[], after: readonly BrokerConnection[], kindOf: (pid: number | undefined) => string): BrokerTraffic {
  const earlier = new Map(before.map((connection) => [connection.id, connection]));
  const byKind = new Map<string, { sent: number; received: number }>();
  for (const connection of after) {
    const kind = kindOf(connection.clientPid);
    const total = byKind.get(kind) ?? { sent: 0, received: 0 };
    const start = earlier.get(connection.id);
    total.sent += connection.sent - (start?.sent ?? 0);
    total.received += connection.received - (start?.received ?? 0);
    byKind.set(kind, total);
  }
  const open = new Set(after.map((connection) => connection.id));
  return { byKind, closed: before.filter((connection) => !open.has(connection.id)).length };
}

/** The broker's connections on `port` now, read with `ss` (iproute2). */
export function readBrokerConnections(port: number): BrokerConnection[] {
  const output = execFileSync('ss', ['-tinpH', 'state', 'established', `( sport = :${port} or dport = :${port} )`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return brokerConnections(parseSsSockets(output), port);
}
