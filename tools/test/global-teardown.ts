// Jest globalTeardown of the integration project: drops the run's databases and topics and stops
// the servers global-setup.ts started. Runs in the same process as the setup.
import './register-aliases';
import { stopTestInfrastructure } from './test-infrastructure';

export default async function globalTeardown(): Promise<void> {
  await stopTestInfrastructure();
}
