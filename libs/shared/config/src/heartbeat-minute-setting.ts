import { IntegerSetting } from './integer-setting';

/**
 * HEARTBEAT_MINUTE_MS, which alert-processor (raising heartbeat alerts) and integration-config
 * (telling an integration's heartbeat status) both read and must agree on. For tests only: the
 * length of the minute that heartbeat intervals count in, so that a one-minute heartbeat expires in
 * a test's seconds. Leave it at 60000 (the default) in any real deployment.
 */
export function HeartbeatMinuteSetting(): PropertyDecorator {
  return IntegerSetting({ min: 1 });
}

/** The default of HEARTBEAT_MINUTE_MS: a minute. */
export const HEARTBEAT_MINUTE_MS_DEFAULT = 60_000;
