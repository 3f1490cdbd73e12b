import { routineBrokerAnswers } from '@alert-ingestion/kafka';
import { findRepoRoot, SupervisedProcess } from '@alert-ingestion/local-infra';
import { createTestDatabase, ensureBuilt, eventually, TestDatabase } from '@alert-ingestion/testing';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repoRoot = findRepoRoot(__dirname);
const SERVICES = ['integration-config', 'alert-processor', 'gateway'];

/** The Node.js release the project pins (package.json's `node`, the binary npm scripts run on). */
const pinnedNode = `v${(JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies['node']}`;

/** Terminal colours, in case a line carries them. */
const plain = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, '');

/**
 * `npm start` on a clean machine (README "Run it"), on free ports and a data folder of its own: a
 * fresh Kafka broker from the jars, an empty database, migrations, topics and the three services,
 * through npm, so `node` is the one npm scripts find. A healthy start is quiet: the brokers'
 * routine answers while they elect leaders and load coordinators are not warnings or errors.
 */
describe('npm start on a clean machine', () => {
  const output: string[] = [];
  let database: TestDatabase;
  let dataDir: string;
  let stack: SupervisedProcess | undefined;
  let exit: { code: number | null; signal: NodeJS.Signals | null };

  beforeAll(async () => {
    ensureBuilt(repoRoot);
    database = await createTestDatabase({ migrated: false });
    dataDir = mkdtempSync(join(tmpdir(), 'quiet-start-'));
    // The stack brings its own broker, as on a machine where nothing is configured.
    const { KAFKA_BROKERS: _brokers, KAFKA_TOPIC_PREFIX: _prefix, DATABASE_URL: _database, LOG_LEVEL: _level, LOG_FORMAT: _format, ...env } = process.env;
    stack = SupervisedProcess.start({
      name: 'npm start',
      command: 'npm',
      args: ['exec', '--offline', '--', 'node', 'dist/tools/dev-stack/src/main.js'],
      cwd: repoRoot,
      env: { ...env, DATABASE_URL: database.url, DEV_STACK_PORTS: 'free', DEV_STACK_DATA_DIR: dataDir },
      onLine: (line) => output.push(plain(line)),
      stopSignal: 'SIGINT',
      stopTimeoutMs: 60_000,
    });
    await eventually(() => expect(output.find((line) => /all services healthy|not healthy|start-up failed|exited/.test(line))).toContain('all services healthy'), 180_000, 250);
    // Consumer groups settle after the first health answers; give them a moment, then Ctrl-C.
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    // Ctrl-C in a terminal signals the foreground process group: npm and the orchestrator.
    process.kill(-stack.pid, 'SIGINT');
    exit = await stack.exited;
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
    await database?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts every service and stops cleanly on Ctrl-C', () => {
    expect(SERVICES.filter((service) => !output.some((line) => line.includes(`${service} is healthy on http://127.0.0.1:`)))).toEqual([]);
    expect(output).toContainEqual(expect.stringMatching(/^stack +\| stopped$/));
    // npm ends the way a Ctrl-C'd program does (by the signal) once the orchestrator has stopped.
    expect([0, 'SIGINT']).toContain(exit.code ?? exit.signal);
  });

  it(`runs the services on the pinned Node.js (${pinnedNode})`, () => {
    const versions = SERVICES.map((service) => [service, output.find((line) => line.startsWith(service) && line.includes('listening on port'))?.match(/\(Node\.js (v[\d.]+)\)/)?.[1]]);
    expect(versions).toEqual(SERVICES.map((service) => [service, pinnedNode]));
  });

  it('writes no ERROR line', () => {
    expect(output.filter((line) => /\bERROR\b/.test(line))).toEqual([]);
  });

  it('writes no warning that only reports a broker answer kafkajs retries or re-joins on', () => {
    const answers = routineBrokerAnswers();
    expect(output.filter((line) => /\bWARN\b/.test(line) && answers.some((answer) => line.includes(answer)))).toEqual([]);
  });
});
