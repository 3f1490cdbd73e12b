import { Body, Controller, Get, INestApplication, Logger, Post } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { configureHttpApp, ServiceLogging, StructuredLogMessage, useServiceLogging } from '../src';

interface Line {
  level: string;
  time: string;
  service: string;
  context?: string;
  message: string;
  request_id?: string;
  [field: string]: unknown;
}

@Controller('work')
class WorkController {
  private readonly logger = new Logger('Work');

  @Post()
  async work(@Body() body: { steps?: number }): Promise<{ done: boolean }> {
    this.logger.log('started');
    await new Promise((resolve) => setTimeout(resolve, 5));
    this.logger.debug({ message: 'step', steps: body.steps } satisfies StructuredLogMessage);
    this.logger.warn('finished after a wait');
    return { done: true };
  }

  @Get('fail')
  fail(): never {
    throw new Error('unexpected');
  }
}

/**
 * LOG_FORMAT=json in one Nest app: the line format, the request id on every line written while a
 * request is handled, the access line, LOG_LEVEL, and what is never written.
 */
describe('useServiceLogging with LOG_FORMAT=json', () => {
  const written: string[] = [];
  let logging: ServiceLogging;
  let app: INestApplication;
  let url: string;
  const lines = (): Line[] => written.join('').trim().split('\n').map((line) => JSON.parse(line) as Line);

  beforeAll(async () => {
    logging = useServiceLogging('test-service', { LOG_FORMAT: 'json', LOG_LEVEL: 'log' }, { destination: { write: (line: string) => written.push(line) } });
    const moduleRef = await Test.createTestingModule({ controllers: [WorkController] }).compile();
    app = configureHttpApp(moduleRef.createNestApplication({ logger: logging.logger }), { logging });
    await app.listen(0, '127.0.0.1');
    url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  });

  afterAll(async () => {
    await app?.close();
  });

  it('writes one JSON object per line with time, level, service, context and message', () => {
    new Logger('Outside').log('no request here');
    expect(lines().at(-1)).toEqual({ level: 'info', time: expect.any(String), service: 'test-service', context: 'Outside', message: 'no request here' });
    expect(Date.parse(lines().at(-1)!.time)).not.toBeNaN();
  });

  it('keeps structured fields as fields', () => {
    new Logger('Outside').warn({ message: 'dead-lettered', request_id: 'r-1', partition: 3 } satisfies StructuredLogMessage);
    expect(lines().at(-1)).toMatchObject({ level: 'warn', context: 'Outside', message: 'dead-lettered', request_id: 'r-1', partition: 3 });
  });

  it("names the request on every line written while it is handled, with the caller's id", async () => {
    written.length = 0;
    const [first, second] = await Promise.all(
      ['first-request', 'second-request'].map((id) =>
        fetch(`${url}/work`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Request-Id': id, Authorization: 'Bearer secret-token-1' }, body: '{"steps": 2}' }),
      ),
    );
    expect([first.headers.get('x-request-id'), second.headers.get('x-request-id')]).toEqual(['first-request', 'second-request']);
    for (const id of ['first-request', 'second-request']) {
      const mine = lines().filter((line) => line.request_id === id);
      expect(mine.map((line) => [line.context, line.message])).toEqual([
        ['Work', 'started'],
        ['Work', 'finished after a wait'],
        ['HTTP', 'POST /work 201'],
      ]);
      expect(mine.at(-1)).toMatchObject({ level: 'info', req: { method: 'POST', url: '/work' }, res: { status: 201 }, duration_ms: expect.any(Number) });
    }
    expect(written.join('')).not.toContain('secret-token-1');
  });

  it('runs a route served outside Nest in the context of its request: every line written meanwhile names it', async () => {
    written.length = 0;
    expect(logging.requestContext).toBe(true);
    const answer = await logging.inRequestContext('outside-nest', async () => {
      new Logger('Route').log('received');
      await new Promise((resolve) => setTimeout(resolve, 5));
      new Logger('Other').warn('written for it by another part');
      return 'answered';
    });
    new Logger('Route').log('after it');
    expect(answer).toBe('answered');
    expect(lines().map((line) => [line.context, line.request_id])).toEqual([
      ['Route', 'outside-nest'],
      ['Other', 'outside-nest'],
      ['Route', undefined],
    ]);
  });

  it('gives a request without an id a new one, on the answer and on its lines', async () => {
    written.length = 0;
    const answer = await fetch(`${url}/work/fail`, { headers: { 'PRIVATE-TOKEN': 'secret-token-2' } });
    expect(answer.status).toBe(500);
    const requestId = answer.headers.get('x-request-id')!;
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines().filter((line) => line.request_id === requestId).map((line) => [line.level, line.context])).toEqual([
      ['error', 'HttpErrorFilter'],
      ['error', 'HTTP'],
    ]);
    expect(written.join('')).not.toContain('secret-token-2');
  });

  it('redacts secret-looking query parameters in the access line', async () => {
    written.length = 0;
    await fetch(`${url}/nowhere?private_token=secret-token-3&page=2`);
    expect(lines().at(-1)).toMatchObject({ context: 'HTTP', req: { url: '/nowhere?private_token=%5Bredacted%5D&page=2' }, res: { status: 404 } });
    expect(written.join('')).not.toContain('secret-token-3');
  });

  it('writes nothing below LOG_LEVEL', () => {
    written.length = 0;
    new Logger('Outside').debug('too detailed');
    new Logger('Outside').verbose('far too detailed');
    expect(written).toEqual([]);
  });
});
