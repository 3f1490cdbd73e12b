import { BooleanSetting } from './boolean-setting';
import { ConfigurationError, loadConfig } from './load-config';

class SwitchEnv {
  @BooleanSetting()
  FEATURE_ON = true;
}

describe('BooleanSetting', () => {
  it.each([
    ['true', true],
    ['false', false],
  ])('reads %s', (value, expected) => {
    expect(loadConfig(SwitchEnv, { FEATURE_ON: value }).FEATURE_ON).toBe(expected);
  });

  it('keeps the default when the variable is unset or empty', () => {
    expect(loadConfig(SwitchEnv, {}).FEATURE_ON).toBe(true);
    expect(loadConfig(SwitchEnv, { FEATURE_ON: '' }).FEATURE_ON).toBe(true);
  });

  it.each([['yes'], ['0'], ['False'], ['off']])('refuses FEATURE_ON=%s, naming the variable', (value) => {
    expect(() => loadConfig(SwitchEnv, { FEATURE_ON: value })).toThrow(ConfigurationError);
    expect(() => loadConfig(SwitchEnv, { FEATURE_ON: value })).toThrow('FEATURE_ON="' + value + '": FEATURE_ON must be true or false');
  });
});
