import { request } from 'node:http';
import { createServer, Socket } from 'node:net';

interface HeldPort {
  port: number;
  release(): Promise<void>;
}

function holdFreePort(): Promise<HeldPort> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0, exclusive: true }, () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('Could not read the port of a probe socket'));
        return;
      }
      resolve({ port: address.port, release: () => new Promise((done) => server.close(() => done())) });
    });
  });
}

/**
 * Distinct TCP ports on 127.0.0.1 that were free a moment ago (the OS picks them; all are held
 * open together while picking, so they differ). Tests use these so that they never need
 * 8080-8082, 9092 or 5432 and never collide with a running stack or another run.
 */
export async function findFreePorts(count: number): Promise<number[]> {
  const held = await Promise.all(Array.from({ length: count }, () => holdFreePort()));
  await Promise.all(held.map((port) => port.release()));
  return held.map((port) => port.port);
}

export async function findFreePort(): Promise<number> {
  const [port] = await findFreePorts(1);
  return port;
}

/** True when something accepts TCP connections on host:port within timeoutMs. */
export function isPortOpen(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, host, () => done(true));
  });
}

/** The status of `GET <baseUrl>/healthz` (a service of this stack), null when nothing answers within 2 s. */
export function healthStatus(baseUrl: string): Promise<number | null> {
  return new Promise((resolve) => {
    const req = request(`${baseUrl}/healthz`, { method: 'GET', timeout: 2_000, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? null);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end();
  });
}
