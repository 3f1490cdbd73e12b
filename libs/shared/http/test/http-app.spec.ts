import { Body, Controller, Get, INestApplication, Post, Query, Res } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Test } from '@nestjs/testing';
import { Type } from 'class-transformer';
import { IsOptional, IsString, ValidateNested } from 'class-validator';
import type { Server, ServerResponse } from 'node:http';
import { existsSync } from 'node:fs';
import { connect, Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { chromium } from 'playwright-core';
import { configureHttpApp, serveOpenApi } from '../src';

class ThingQuery {
  @ApiProperty({ required: false })
  @IsOptional()
  @IsString()
  search?: string;
}

class ThingPart {
  @ApiProperty()
  @IsString()
  label!: string;
}

class NewThing {
  @ApiProperty()
  @IsString()
  name!: string;

  @ApiProperty({ type: [ThingPart], required: false })
  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => ThingPart)
  parts?: ThingPart[];
}

/** What the handlers saw: the input policy must stop bad text before any of them runs. */
const handled: string[] = [];

@Controller('api/v4/things')
class ThingsController {
  @Get()
  list(@Query() query: ThingQuery): { search: string | null } {
    handled.push(`GET ${query.search}`);
    return { search: query.search ?? null };
  }

  @Post()
  create(@Body() thing: NewThing): { name: string } {
    handled.push(`POST ${thing.name}`);
    return thing;
  }
}

/** An answer written in two parts: the first at once, the last when the test calls `finishAnswer`. */
let finishAnswer: () => void = () => undefined;

@Controller('api/v4/download')
class DownloadController {
  @Get()
  async download(@Res() response: ServerResponse): Promise<void> {
    const finished = new Promise<void>((resolve) => (finishAnswer = resolve));
    response.writeHead(200, { 'Content-Type': 'text/plain' });
    response.write('first part;');
    await finished;
    response.end('last part');
  }
}

/**
 * Short timeouts, the request timeout well after the headers timeout: which one cut a connection
 * shows in the order the connections close, not in how long each took (which a loaded machine
 * stretches by seconds).
 */
const SETTINGS = { HTTP_HEADERS_TIMEOUT_MS: 1_000, HTTP_REQUEST_TIMEOUT_MS: 6_000, HTTP_KEEP_ALIVE_TIMEOUT_MS: 1_500 };

/**
 * The connections the tests open and leave to the server to close: ended after each test, so a
 * server that failed to close one fails its test instead of keeping Jest from exiting.
 */
const clientSockets = new Set<Socket>();
afterEach(() => {
  for (const socket of clientSockets) socket.destroy();
  clientSockets.clear();
});

/** Writes `text` on a new connection and never more; resolves with what the server wrote and when it closed. */
function hold(url: string, text: string): Promise<{ answer: string; closedAfterMs: number }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const start = performance.now();
    const socket = connect(Number(port), hostname, () => socket.write(text));
    clientSockets.add(socket);
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ answer, closedAfterMs: Math.round(performance.now() - start) }));
  });
}

/**
 * configureHttpApp gives every service the same HTTP behaviour (docs/operating.md "Input policy and limits",
 * "Timeouts"): checked here on a small app of its own, with short timeouts.
 */
describe('configureHttpApp', () => {
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ controllers: [ThingsController] }).compile();
    app = moduleRef.createNestApplication({ logger: false, bodyParser: false });
    configureHttpApp(app, { server: SETTINGS });
    await serveOpenApi(app, { title: 'things', description: 'A test API.' });
    await app.listen(0, '127.0.0.1');
    url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });

  afterAll(async () => {
    await app.close();
  });

  beforeEach(() => handled.splice(0));

  const post = (body: string) => fetch(`${url}/api/v4/things`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
  const answer = async (response: Response) => ({ status: response.status, body: (await response.json()) as unknown });

  it('refuses NUL and unpaired surrogates in the query, the path and the body before any handler', async () => {
    expect(await answer(await fetch(`${url}/api/v4/things?search=a%00b`))).toEqual({
      status: 400,
      body: { error: 'invalid_text', message: 'The query parameter search contains a NUL character (U+0000), which text may not contain.' },
    });
    expect(await answer(await post('{"name":"a\\ud800"}'))).toEqual({
      status: 400,
      body: { error: 'invalid_text', message: 'The field name contains an unpaired UTF-16 surrogate (U+D800), which text may not contain.' },
    });
    expect((await fetch(`${url}/api/v4/things%00`)).status).toBe(400);
    expect(handled).toEqual([]);
    expect(await answer(await post('{"name":"a\\\\u0000 😀"}'))).toEqual({ status: 201, body: { name: 'a\\u0000 😀' } });
  });

  it('names the first field in error of a refused body, nested ones as a client writes them', async () => {
    const missing = await post('{}');
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual({ error: 'validation_failed', message: 'name must be a string', field: 'name' });
    const nested = await post('{"name": "a", "parts": [{"label": "x"}, {"label": 3}]}');
    expect(await nested.json()).toEqual({ error: 'validation_failed', message: 'parts.1.label must be a string', field: 'parts[1].label' });
    expect(handled).toEqual([]);
  });

  it('holds JSON bodies to 100 levels and 100 KiB', async () => {
    expect(await answer(await post(`{"name":${'['.repeat(10_000)}${']'.repeat(10_000)}}`))).toEqual({
      status: 400,
      body: { error: 'payload_too_deep', message: 'The request body is nested deeper than 100 levels.' },
    });
    expect(await answer(await post(JSON.stringify({ name: 'x'.repeat(100 * 1024) })))).toEqual({
      status: 413,
      body: { error: 'payload_too_large', message: 'The request body is larger than 102400 bytes (100 KiB).' },
    });
    expect((await post(JSON.stringify({ name: 'x'.repeat(100 * 1024 - 20) }))).status).toBe(201);
    expect(handled).toHaveLength(1);
    const utf16 = await fetch(`${url}/api/v4/things`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-16le' },
      body: Buffer.from('{"name":"x"}', 'utf16le'),
    });
    expect(await answer(utf16)).toEqual({ status: 415, body: { error: 'unsupported_charset', message: 'JSON bodies must be UTF-8, not utf-16le.' } });
  });

  it('puts the security headers on answers, errors and refusals', async () => {
    for (const response of [await fetch(`${url}/api/v4/things`), await fetch(`${url}/nothing`), await post('{"name":'), await fetch(`${url}/api/v4/things?search=%00`)]) {
      expect(response.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it('cuts slow senders at the headers and request timeouts with a 408, and closes idle connections', async () => {
    const closings: string[] = [];
    const held = (name: string, text: string) => hold(url, text).then((outcome) => (closings.push(name), outcome));
    const [incompleteBody, silent, partialHeaders] = await Promise.all([
      held('incomplete body', 'POST /api/v4/things HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":'),
      // A connection that sends nothing is not a sender yet: it is closed, unanswered, at the request timeout.
      held('silent', ''),
      // Opened last, closed first: cut by the headers timeout, not by a request timeout it shares.
      delay(300).then(() => held('partial headers', 'GET /api/v4/things HTTP/1.1\r\nHost: x\r\nX-Slow: ')),
    ]);
    // Never before its timeout; the headers timeout cuts first, the request timeout five seconds later.
    expect(partialHeaders.closedAfterMs).toBeGreaterThanOrEqual(990);
    expect(incompleteBody.closedAfterMs).toBeGreaterThanOrEqual(5_990);
    expect(silent.closedAfterMs).toBeGreaterThanOrEqual(5_990);
    expect(closings[0]).toBe('partial headers');
    for (const { answer: text } of [partialHeaders, incompleteBody]) {
      expect(text).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({ error: 'request_timeout', message: 'The request was not received in time.' });
    }
    expect(silent.answer).toBe('');
    // A kept-alive connection: closed once idle for the keep-alive timeout (Node adds a second's margin
    // to the `Keep-Alive: timeout=1` it announces), never by the headers timeout while idle.
    const idle = await hold(url, 'GET /api/v4/things HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(idle.answer).toMatch(/^HTTP\/1\.1 200 OK\r\n[^]*\r\nKeep-Alive: timeout=1\r\n/);
    expect(idle.closedAfterMs).toBeGreaterThanOrEqual(2_490);
  }, 30_000);

  it('serves Swagger UI under its own policy, and Chromium shows it with no policy violation', async () => {
    const chromiumPath = '/usr/bin/chromium';
    if (!existsSync(chromiumPath)) throw new Error(`${chromiumPath} is missing: install Debian's chromium package (apt-get install -y chromium)`);
    const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      const response = await page.goto(`${url}/api/v4/docs`);
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
      await page.locator('.opblock-summary-path', { hasText: '/api/v4/things' }).first().waitFor({ timeout: 10_000 });
      await page.locator('.opblock-summary').first().click();
      await page.locator('.opblock-body').first().waitFor({ timeout: 10_000 });
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 30_000);
});

describe('configureHttpApp: closing', () => {
  it('ends a connection whose answer was still being written at close() once the answer is complete, instead of keeping it alive', async () => {
    const moduleRef = await Test.createTestingModule({ controllers: [DownloadController] }).compile();
    const app = moduleRef.createNestApplication({ logger: false, bodyParser: false });
    // The keep-alive timeout outlasts this test's own: a connection kept alive after its answer fails it.
    configureHttpApp(app, { server: { ...SETTINGS, HTTP_KEEP_ALIVE_TIMEOUT_MS: 65_000 } });
    await app.listen(0, '127.0.0.1');
    const { port } = new URL((await app.getUrl()).replace('[::1]', '127.0.0.1'));
    // A client that reads its answer but never closes its connection itself.
    const socket = connect(Number(port), '127.0.0.1');
    clientSockets.add(socket);
    let answer = '';
    socket.setEncoding('utf8');
    const firstPart = new Promise<void>((resolve) =>
      socket.on('data', (chunk: string) => {
        answer += chunk;
        if (answer.includes('first part;')) resolve();
      }),
    );
    const endedByServer = new Promise<void>((resolve) => socket.on('end', resolve));
    socket.write('GET /api/v4/download HTTP/1.1\r\nHost: x\r\n\r\n');
    await firstPart;

    const closed = app.close();
    // Nest closes the HTTP server after its shutdown hooks; the answer ends once the server is closing.
    const server = app.getHttpServer() as Server;
    while (server.listening) await delay(5);
    finishAnswer();
    await closed;
    await endedByServer;
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer).toMatch(/\r\nConnection: keep-alive\r\n/);
    expect(answer).toContain('last part');
    expect(answer.endsWith('\r\n0\r\n\r\n')).toBe(true);
  }, 20_000);
});
