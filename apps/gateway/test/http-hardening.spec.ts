import { ServiceProcess } from '@alert-ingestion/testing';
import { readdirSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import { bearer, post } from './support/http-client';
import { ADMIN_TOKEN, Pipeline, Project } from './support/pipeline';

/** How a held connection ended: when the server closed it, and what it wrote before. */
interface Cut {
  closedAfterMs: number;
  answer: string;
}

/** Opens a connection to `url`, writes `text` and never more; resolves when the server closes it. */
function holdConnection(url: string, text: string, giveUpMs = 60_000): Promise<Cut> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const socket: Socket = connect(Number(port), hostname, () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => undefined);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${url}: still open after ${giveUpMs} ms`));
    }, giveUpMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ closedAfterMs: Math.round(performance.now() - start), answer });
    });
  });
}

/** Sends one complete keep-alive request; resolves with how long the idle connection then stays open. */
function idleAfterAnswer(url: string, path: string): Promise<{ answer: string; idleMs: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: keep-alive\r\n\r\n`));
    let answer = '';
    let answeredAt = 0;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
      const headEnd = answer.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(answer);
      if (answeredAt === 0 && headEnd >= 0 && length && answer.length >= headEnd + 4 + Number(length[1])) answeredAt = performance.now();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ answer, idleMs: Math.round(performance.now() - answeredAt) }));
  });
}

/** Two requests on one keep-alive connection, `idleMs` apart; resolves with both answers as written. */
function reuseAfterIdle(url: string, path: string, idleMs: number): Promise<string[]> {
  const { hostname, port } = new URL(url);
  const request = `GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`;
  return new Promise((resolve, reject) => {
    const answers: string[] = [''];
    const socket = connect(Number(port), hostname, () => socket.write(request));
    socket.setEncoding('utf8');
    const complete = (text: string) => {
      const headEnd = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text);
      return headEnd >= 0 && length !== null && text.length >= headEnd + 4 + Number(length[1]);
    };
    socket.on('data', (chunk: string) => {
      answers[answers.length - 1] += chunk;
      if (!complete(answers[answers.length - 1])) return;
      if (answers.length === 2) {
        socket.destroy();
        resolve(answers);
        return;
      }
      answers.push('');
      setTimeout(() => socket.write(request), idleMs);
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`${url}: the connection was closed after ${answers.length} answer(s)`)));
  });
}

function openFileDescriptors(service: ServiceProcess): number {
  return readdirSync(`/proc/${service.process.pid}/fd`).length;
}

function report(line: string): void {
  process.stdout.write(`[http-hardening] ${line}\n`);
}

const PARTIAL_HEADERS = 'GET /healthz HTTP/1.1\r\nHost: slow\r\nX-Slow: ';

/**
 * Every service's HTTP server under hostile or careless clients, with the default settings
 * (docs/operating.md "Timeouts"): slow senders are cut, idle connections are kept for clients and proxies that
 * reuse them and closed after the keep-alive timeout, and every answer carries
 * the security headers (docs/operating.md "Input policy and limits").
 */
describe('HTTP hardening of the three services (built, as processes, default settings)', () => {
  let pipeline: Pipeline;
  let project: Project;
  let services: ServiceProcess[];

  /** A body that is declared but never completes, on a route of each service that reads it. */
  const incompleteBody = (service: ServiceProcess): string => {
    const target =
      service.name === 'gateway'
        ? { path: new URL(project.integration.url).pathname, token: project.integration.authorization_key }
        : service.name === 'alert-processor'
          ? { path: `/api/v4/projects/${project.id}/alerts/1`, token: ADMIN_TOKEN }
          : { path: '/api/v4/users', token: ADMIN_TOKEN };
    const method = service.name === 'alert-processor' ? 'PUT' : 'POST';
    return `${method} ${target.path} HTTP/1.1\r\nHost: slow\r\nAuthorization: Bearer ${target.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"title": `;
  };

  beforeAll(async () => {
    pipeline = await Pipeline.start();
    project = await pipeline.createProject('premium');
    services = [pipeline.gateway, pipeline.processor, pipeline.integrationConfig];
  }, 180_000);

  afterAll(async () => {
    await pipeline?.stop();
  }, 60_000);

  describe('security headers', () => {
    const API_POLICY = "default-src 'none';frame-ancestors 'none'";
    const common = {
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
    };
    const headersOf = (response: Response) => ({
      'content-security-policy': response.headers.get('content-security-policy'),
      ...Object.fromEntries(Object.keys(common).map((name) => [name, response.headers.get(name)])),
    });
    const get = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

    it('on the console: its page and its files, with a policy that allows only its own scripts', async () => {
      const page = await get(`${pipeline.integrationConfig.url}/`);
      expect(page.status).toBe(200);
      const policy = page.headers.get('content-security-policy') ?? '';
      expect(headersOf(page)).toEqual({ 'content-security-policy': policy, ...common });
      const directives = new Map(policy.split(';').map((directive) => directive.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
      expect(directives.get('default-src')).toEqual(["'self'"]);
      expect(directives.get('script-src')).toEqual(["'self'"]);
      expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
      expect(policy).not.toContain('unsafe');
      const asset = (await page.text()).match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
      expect(asset).toBeDefined();
      const file = await get(`${pipeline.integrationConfig.url}${asset}`);
      expect(file.status).toBe(200);
      expect(headersOf(file)).toEqual({ 'content-security-policy': policy, ...common });
    });

    it.each([
      ['integration-config', () => '/api/v4/user', () => '/api/v4/nothing-here'],
      ['alert-processor', () => `/api/v4/projects/${project.id}/alerts/status_counts`, () => `/api/v4/projects/${project.id}/alerts/999999`],
      ['gateway', () => '/healthz', () => '/nothing-here'],
    ])('on the API answers and error answers of %s', async (name, okPathOf, missingPathOf) => {
      const service = services.find((candidate) => candidate.name === name)!;
      const [okPath, missingPath] = [okPathOf(), missingPathOf()];
      const answer = await get(`${service.url}${okPath}`, { Authorization: `Bearer ${ADMIN_TOKEN}` });
      expect(answer.status).toBe(200);
      expect(headersOf(answer)).toEqual({ 'content-security-policy': API_POLICY, ...common });
      const missing = await get(`${service.url}${missingPath}`, { Authorization: `Bearer ${ADMIN_TOKEN}` });
      expect(missing.status).toBe(404);
      expect(headersOf(missing)).toEqual({ 'content-security-policy': API_POLICY, ...common });
      const refused = await get(`${service.url}${okPath}?search=%00`, { Authorization: `Bearer ${ADMIN_TOKEN}` });
      expect(refused.status).toBe(400);
      expect(headersOf(refused)).toEqual({ 'content-security-policy': API_POLICY, ...common });
    });

    it("on the gateway's receiving URL, answered or refused", async () => {
      for (const key of [project.integration.authorization_key, 'wrong-key']) {
        const answer = await post(project.integration.url, JSON.stringify({ title: 'with security headers' }), { headers: bearer(key) });
        expect(answer.status).toBe(key === 'wrong-key' ? 401 : 200);
        expect(answer.headers).toMatchObject({ 'content-security-policy': API_POLICY, ...common });
      }
    });

    it('on the API documents, whose Swagger UI may use inline styles but only its own scripts', async () => {
      for (const service of [pipeline.integrationConfig, pipeline.processor]) {
        const page = await get(`${service.url}/api/v4/docs`);
        expect(page.status).toBe(200);
        const policy = page.headers.get('content-security-policy') ?? '';
        expect(policy).toContain("script-src 'self'");
        expect(policy).toContain("frame-ancestors 'none'");
        expect(policy.match(/script-src[^;]*/)?.[0]).not.toContain('unsafe');
        expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      }
    });
  });

  describe('timeouts', () => {
    it('cuts a sender of half a header after the 5 s headers timeout, with 408', async () => {
      const cuts = await Promise.all(services.map((service) => holdConnection(service.url, PARTIAL_HEADERS)));
      for (const [index, cut] of cuts.entries()) {
        report(`${services[index].name}: half a header, closed after ${cut.closedAfterMs} ms`);
        expect(cut.closedAfterMs).toBeGreaterThanOrEqual(4_900);
        expect(cut.closedAfterMs).toBeLessThan(7_500);
        expect(cut.answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
        expect(cut.answer).toMatch(/\r\nconnection: close\r\n/i);
        expect(JSON.parse(cut.answer.slice(cut.answer.indexOf('\r\n\r\n') + 4))).toEqual({
          error: 'request_timeout',
          message: 'The request was not received in time.',
        });
      }
    }, 30_000);

    it('cuts a sender of an incomplete body after the 30 s request timeout', async () => {
      const cuts = await Promise.all(services.map((service) => holdConnection(service.url, incompleteBody(service))));
      for (const [index, cut] of cuts.entries()) {
        report(`${services[index].name}: Content-Length 1000 and 10 bytes sent, closed after ${cut.closedAfterMs} ms`);
        expect(cut.closedAfterMs).toBeGreaterThanOrEqual(29_900);
        expect(cut.closedAfterMs).toBeLessThan(32_500);
        expect(cut.answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      }
    }, 60_000);

    it('keeps an idle keep-alive connection open past the headers timeout, announcing 65 s, and serves it again', async () => {
      const reused = await Promise.all(services.map((service) => reuseAfterIdle(service.url, '/healthz', 7_000)));
      for (const [index, answers] of reused.entries()) {
        report(`${services[index].name}: keep-alive connection idle 7 s, then its second request answered ${answers[1].split('\r\n')[0]}`);
        expect(answers[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
        expect(answers[0]).toMatch(/\r\nkeep-alive: timeout=65\r\n/i);
        expect(answers[1]).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
      }
    }, 30_000);

    it('cuts 300 slow connections at once, and their file descriptors are released', async () => {
      const before = services.map(openFileDescriptors);
      const start = performance.now();
      const held = Array.from({ length: 300 }, (_, index) => holdConnection(services[index % 3].url, PARTIAL_HEADERS));
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const during = services.map(openFileDescriptors);
      const cuts = await Promise.all(held);
      const allClosedMs = Math.round(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const after = services.map(openFileDescriptors);
      const slowest = Math.max(...cuts.map((cut) => cut.closedAfterMs));
      report(`300 connections of half a header (100 per service): all closed after ${allClosedMs} ms (slowest ${slowest} ms)`);
      for (const [index, service] of services.entries()) {
        report(`${service.name}: open file descriptors ${before[index]} before, ${during[index]} while held, ${after[index]} after`);
        // The 100 held connections, give or take the service's own sockets (Kafka, PostgreSQL) opening and closing meanwhile.
        expect(during[index]).toBeGreaterThanOrEqual(before[index] + 95);
        expect(after[index]).toBeLessThanOrEqual(before[index] + 5);
      }
      expect(cuts.every((cut) => cut.answer.startsWith('HTTP/1.1 408 '))).toBe(true);
      expect(slowest).toBeLessThan(8_000);
    }, 60_000);

    it('keeps waiting for the processor past the request timeout: it bounds receiving the request, not answering it', async () => {
      // A gateway whose request timeout is shorter than its reply timeout, with no processor to reply.
      const gateway = await pipeline.startGateway({ HTTP_REQUEST_TIMEOUT_MS: '2000', HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '3000', GATEWAY_REPLY_TIMEOUT_MS: '4000' });
      // An idle keep-alive connection is governed by the keep-alive timeout, not the headers timeout.
      const idle = await idleAfterAnswer(gateway.url, '/healthz');
      report(`gateway with a 1 s headers and 3 s keep-alive timeout: idle connection closed ${idle.idleMs} ms after its answer`);
      expect(idle.idleMs).toBeGreaterThanOrEqual(2_900);
      await pipeline.processor.stop();
      const start = performance.now();
      const url = new URL(project.integration.url);
      const answer = await post(`${gateway.url}${url.pathname}`, JSON.stringify({ title: 'no processor to answer' }), { headers: bearer(project.integration.authorization_key) });
      const waitedMs = Math.round(performance.now() - start);
      report(`gateway with a 2 s request timeout and a 4 s reply timeout: answered ${answer.status} after ${waitedMs} ms`);
      expect(answer.status).toBe(202);
      expect(waitedMs).toBeGreaterThanOrEqual(3_900);
    }, 60_000);
  });

});
