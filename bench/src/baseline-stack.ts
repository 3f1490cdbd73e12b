/**
 * The baseline a benchmark compares with: baseline-receiver.js (node:http, one autocommitted INSERT
 * per request) on a database of its own. Used by `npm run bench:baseline` and `npm run bench:compare`.
 */
import { withClient } from '@alert-ingestion/database';
import { findFreePorts, SupervisedProcess } from '@alert-ingestion/local-infra';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { benchDatabase, Cleanup, log } from './bench-database';
import { CpuSource, postgresCpu, processCpu } from './process-cpu';

export interface BaselineStack {
  url: URL;
  databaseUrl: string;
  embedded: boolean;
  /** Alerts stored so far. */
  count(): Promise<number>;
  cpuSources: CpuSource[];
}

/** Starts baseline-receiver.js under a SupervisedProcess and resolves once it listens. */
async function startReceiver(databaseUrl: string, port: number): Promise<SupervisedProcess> {
  let listening: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (listening = resolve));
  const receiver = SupervisedProcess.start({
    name: 'baseline receiver',
    command: process.execPath,
    args: [join(__dirname, 'baseline-receiver.js')],
    env: { ...process.env, BASELINE_DATABASE_URL: databaseUrl, PORT: String(port) },
    onLine: (line) => (line.startsWith('listening') ? listening() : log(`receiver: ${line}`)),
  });
  const exited = receiver.exited.then((exit) => {
    throw new Error(`the baseline receiver exited (code ${exit.code}, signal ${exit.signal})`);
  });
  await Promise.race([ready, exited]);
  exited.catch(() => undefined);
  return receiver;
}

/** Starts the baseline receiver on a database of its own; what it starts is pushed onto `cleanups`. */
export async function startBaseline(cleanups: Cleanup[]): Promise<BaselineStack> {
  const { databaseUrl, embedded } = await benchDatabase(`alert_ingestion_baseline_${randomBytes(4).toString('hex')}`, cleanups, log);
  const [port] = await findFreePorts(1);
  const receiver = await startReceiver(databaseUrl, port);
  cleanups.push(async () => void (await receiver.stop()));
  return {
    url: new URL(`http://127.0.0.1:${port}/alerts`),
    databaseUrl,
    embedded,
    count: () => withClient(databaseUrl, async (client) => Number((await client.query<{ n: string }>('SELECT count(*) AS n FROM baseline_alerts')).rows[0].n)),
    cpuSources: [processCpu('receiver', receiver.pid), postgresCpu],
  };
}
