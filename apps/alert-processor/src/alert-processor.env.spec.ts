import { ConfigurationError, loadConfig } from '@alert-ingestion/config';
import { AlertProcessorEnv } from './alert-processor.env';

describe('AlertProcessorEnv: PROCESSOR_ROLES and PROCESSOR_NICENESS', () => {
  it('runs intake and workflow, at the usual priority, by default', () => {
    const env = loadConfig(AlertProcessorEnv, {});
    expect(env.PROCESSOR_ROLES).toEqual(['intake', 'workflow']);
    expect(env.PROCESSOR_NICENESS).toBe(0);
  });

  it('takes one role or both, comma-separated with spaces allowed', () => {
    expect(loadConfig(AlertProcessorEnv, { PROCESSOR_ROLES: 'workflow' }).PROCESSOR_ROLES).toEqual(['workflow']);
    expect(loadConfig(AlertProcessorEnv, { PROCESSOR_ROLES: 'intake' }).PROCESSOR_ROLES).toEqual(['intake']);
    expect(loadConfig(AlertProcessorEnv, { PROCESSOR_ROLES: 'workflow, intake' }).PROCESSOR_ROLES).toEqual(['workflow', 'intake']);
    expect(loadConfig(AlertProcessorEnv, { PROCESSOR_NICENESS: '10' }).PROCESSOR_NICENESS).toBe(10);
  });

  it('refuses a role it does not know, an empty list and a niceness outside 0 to 19, naming the variable', () => {
    expect(() => loadConfig(AlertProcessorEnv, { PROCESSOR_ROLES: 'intake,mailer' })).toThrow(ConfigurationError);
    expect(() => loadConfig(AlertProcessorEnv, { PROCESSOR_ROLES: 'intake,mailer' })).toThrow(/PROCESSOR_ROLES.*may only name intake and workflow/);
    expect(() => loadConfig(AlertProcessorEnv, { PROCESSOR_ROLES: ',' })).toThrow(/PROCESSOR_ROLES/);
    expect(() => loadConfig(AlertProcessorEnv, { PROCESSOR_NICENESS: '20' })).toThrow(/PROCESSOR_NICENESS/);
    expect(() => loadConfig(AlertProcessorEnv, { PROCESSOR_NICENESS: '-5' })).toThrow(/PROCESSOR_NICENESS/);
  });
});
