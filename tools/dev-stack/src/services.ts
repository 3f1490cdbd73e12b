/**
 * The services `npm start` runs, in start order, each from its build output. The one list: add a
 * service here and the orchestrator starts, prefixes and stops it.
 */
export interface ServiceDefinition {
  name: string;
  /** PORT it gets (CONTRACT.md "Processes and defaults"). */
  port: number;
  /** Entry point relative to the repository root (built by `npm run build`). */
  main: string;
}

export const SERVICES: readonly ServiceDefinition[] = [
  { name: 'integration-config', port: 8081, main: 'dist/apps/integration-config/src/main.js' },
  { name: 'alert-processor', port: 8082, main: 'dist/apps/alert-processor/src/main.js' },
  { name: 'gateway', port: 8080, main: 'dist/apps/gateway/src/main.js' },
];
