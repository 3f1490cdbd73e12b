// Jest globalSetup of the integration project: real PostgreSQL and Kafka for the run (see
// test-infrastructure.ts). The alias hook must load before anything that imports a library.
import './register-aliases';
import { startTestInfrastructure } from './test-infrastructure';

export default async function globalSetup(): Promise<void> {
  await startTestInfrastructure();
}
