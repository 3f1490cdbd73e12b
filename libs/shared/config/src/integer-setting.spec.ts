import { IntegerSetting } from './integer-setting';
import { ConfigurationError, loadConfig } from './load-config';

class BoundedEnv {
  @IntegerSetting({ min: 1, max: 10 })
  WORKERS = 2;

  @IntegerSetting()
  ANY_COUNT = 0;
}

describe('IntegerSetting', () => {
  it('converts environment text to a number', () => {
    expect(loadConfig(BoundedEnv, { WORKERS: '10', ANY_COUNT: '-4' })).toMatchObject({ WORKERS: 10, ANY_COUNT: -4 });
  });

  it.each([['0'], ['11'], ['2.5'], ['ten']])('refuses WORKERS=%s, naming the variable', (value) => {
    expect(() => loadConfig(BoundedEnv, { WORKERS: value })).toThrow(ConfigurationError);
    expect(() => loadConfig(BoundedEnv, { WORKERS: value })).toThrow(/WORKERS=/);
  });
});
