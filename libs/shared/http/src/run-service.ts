import { INestApplication, Logger } from '@nestjs/common';

/**
 * The body of every main.ts: build the app, listen, and on a failed bootstrap log why and exit
 * non-zero so a supervisor (npm start, Docker, Kubernetes) sees the failure.
 */
export async function runService(name: string, start: () => Promise<INestApplication>, port: number): Promise<void> {
  const logger = new Logger(name);
  try {
    const app = await start();
    await app.listen(port, process.env['HOST'] ?? '0.0.0.0');
    // The runtime is pinned (package.json's `node`); the line shows which one a process really got.
    logger.log(`listening on port ${port} (Node.js ${process.version})`);
  } catch (error) {
    logger.error(`failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  }
}
