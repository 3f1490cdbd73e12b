import { pino } from 'pino';
import { PinoNestLogger } from './pino-nest-logger';

describe('PinoNestLogger', () => {
  const written: string[] = [];
  const logger = new PinoNestLogger(pino({ level: 'trace', base: { service: 's' }, messageKey: 'message', timestamp: false, formatters: { level: (label) => ({ level: label }) } }, { write: (line: string) => written.push(line) }));
  const lines = (): Record<string, unknown>[] => written.map((line) => JSON.parse(line) as Record<string, unknown>);

  beforeEach(() => {
    written.length = 0;
  });

  it("writes Nest's levels as pino's, the last parameter as the context", () => {
    logger.verbose('v', 'A');
    logger.debug('d', 'A');
    logger.log('l', 'A');
    logger.warn('w', 'A');
    logger.error('e', undefined, 'A');
    logger.fatal('f', 'A');
    logger.log('without context');
    expect(lines()).toEqual([
      { level: 'trace', service: 's', context: 'A', message: 'v' },
      { level: 'debug', service: 's', context: 'A', message: 'd' },
      { level: 'info', service: 's', context: 'A', message: 'l' },
      { level: 'warn', service: 's', context: 'A', message: 'w' },
      { level: 'error', service: 's', context: 'A', message: 'e' },
      { level: 'fatal', service: 's', context: 'A', message: 'f' },
      { level: 'info', service: 's', message: 'without context' },
    ]);
  });

  it('formats a message with the parameters between it and the context', () => {
    logger.log('%s after %d ms', 'answered', 12, 'A');
    expect(lines()).toEqual([{ level: 'info', service: 's', context: 'A', message: 'answered after 12 ms' }]);
  });

  it("keeps a message object's fields, and an Error under err", () => {
    logger.warn({ message: 'dead-lettered', request_id: 'r-1', partition: 3 }, 'Consumer');
    logger.error(new TypeError('bad input'), 'Consumer');
    expect(lines()).toEqual([
      { level: 'warn', service: 's', context: 'Consumer', message: 'dead-lettered', request_id: 'r-1', partition: 3 },
      { level: 'error', service: 's', context: 'Consumer', message: 'bad input', err: { type: 'TypeError', message: 'bad input', stack: expect.stringContaining('TypeError: bad input') } },
    ]);
  });

  it("keeps the stack an exception handler passes as an err field, not in the message", () => {
    const stack = 'Error: unexpected\n    at handler (app.js:1:1)';
    logger.error('unexpected', stack, 'ExceptionsHandler');
    logger.error('a message', 'a detail, not a stack', 'A');
    expect(lines()).toEqual([
      { level: 'error', service: 's', context: 'ExceptionsHandler', message: 'unexpected', err: { type: 'Error', message: 'unexpected', stack } },
      { level: 'error', service: 's', context: 'A', message: 'a message' },
    ]);
  });

  it('names the context on every line written inside it, also after an await, and only there', async () => {
    const inside = logger.runInContext({ request_id: 'r-2' }, async () => {
      logger.log('received', 'Route');
      await new Promise((resolve) => setTimeout(resolve, 2));
      logger.warn({ message: 'refused' }, 'Other');
      return 'answered';
    });
    logger.log('meanwhile', 'Route');
    expect(await inside).toBe('answered');
    expect(lines().map((line) => [line['message'], line['request_id']])).toEqual([
      ['received', 'r-2'],
      ['meanwhile', undefined],
      ['refused', 'r-2'],
    ]);
  });
});
