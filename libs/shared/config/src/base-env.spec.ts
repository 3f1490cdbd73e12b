import { assertAdminTokenSetInProduction, LOCAL_ADMIN_TOKEN, nestLogLevels } from './base-env';

describe('nestLogLevels', () => {
  it('enables the given level and every more severe one', () => {
    expect(nestLogLevels('error')).toEqual(['fatal', 'error']);
    expect(nestLogLevels('warn')).toEqual(['fatal', 'error', 'warn']);
    expect(nestLogLevels('log')).toEqual(['fatal', 'error', 'warn', 'log']);
    expect(nestLogLevels('debug')).toEqual(['fatal', 'error', 'warn', 'log', 'debug']);
    expect(nestLogLevels('verbose')).toEqual(['fatal', 'error', 'warn', 'log', 'debug', 'verbose']);
  });
});

describe('assertAdminTokenSetInProduction', () => {
  it('refuses the local ADMIN_TOKEN only in production', () => {
    expect(() => assertAdminTokenSetInProduction({ NODE_ENV: 'production', ADMIN_TOKEN: LOCAL_ADMIN_TOKEN })).toThrow(/ADMIN_TOKEN must be set/);
    expect(() => assertAdminTokenSetInProduction({ NODE_ENV: 'production', ADMIN_TOKEN: 'a-real-admin-token' })).not.toThrow();
    expect(() => assertAdminTokenSetInProduction({ NODE_ENV: 'development', ADMIN_TOKEN: LOCAL_ADMIN_TOKEN })).not.toThrow();
  });
});
