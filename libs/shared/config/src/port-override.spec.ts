import { BaseEnv } from './base-env';
import { loadConfig } from './load-config';

class ServiceEnv extends BaseEnv {
  override PORT = 8081;
}

describe('a service overriding the default PORT', () => {
  it('keeps BaseEnv\'s conversion and bounds', () => {
    expect(loadConfig(ServiceEnv, {}).PORT).toBe(8081);
    expect(loadConfig(ServiceEnv, { PORT: '9000' }).PORT).toBe(9000);
    expect(() => loadConfig(ServiceEnv, { PORT: '70000' })).toThrow(/PORT=/);
  });
});
