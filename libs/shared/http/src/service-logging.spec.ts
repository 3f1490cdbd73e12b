import { loggableUrl, TextLogger } from './service-logging';

describe('loggableUrl', () => {
  it('keeps paths and ordinary query parameters', () => {
    expect(loggableUrl('/api/v4/projects?search=acme&page=2')).toBe('/api/v4/projects?search=acme&page=2');
    expect(loggableUrl('/healthz')).toBe('/healthz');
    expect(loggableUrl(undefined)).toBe('');
  });

  it('redacts the values of parameters that may carry a secret', () => {
    expect(loggableUrl('/api/v4/user?private_token=glpat-secret&x=1')).toBe('/api/v4/user?private_token=%5Bredacted%5D&x=1');
    expect(loggableUrl('/a?access_token=s1&api_key=s2&password=s3&Authorization=s4')).not.toMatch(/s[1-4]/);
  });
});

describe('TextLogger', () => {
  function printed(log: (logger: TextLogger) => void): string {
    const written: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(((chunk: string) => {
      written.push(chunk);
      return true;
    }) as typeof process.stdout.write);
    try {
      log(new TextLogger({ colors: false, logLevels: ['log', 'warn', 'error'] }));
    } finally {
      write.mockRestore();
    }
    return written.join('');
  }

  it('writes a structured message on one line, its fields as JSON after the message', () => {
    const line = printed((logger) => logger.warn({ message: 'Dead-lettered alerts.raw.v1/0@7: bad', request_id: 'r-1', absent: undefined }, 'RawAlertConsumer'));
    expect(line.trim().split('\n')).toHaveLength(1);
    expect(line).toContain('[RawAlertConsumer] Dead-lettered alerts.raw.v1/0@7: bad {"request_id":"r-1"}');
  });

  it('writes plain messages as Nest does', () => {
    expect(printed((logger) => logger.log('listening on port 8081', 'gateway'))).toContain('[gateway] listening on port 8081');
  });
});
