import { findFreePort, SupervisedProcess } from '@alert-ingestion/local-infra';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { ensureAlertmanager } from './ensure-alertmanager';
import { setTimeout as sleep } from 'node:timers/promises';

const execFileAsync = promisify(execFile);

export interface AlertmanagerOptions {
  repoRoot: string;
  /** The integration URL Alertmanager posts its webhook notifications to. */
  webhookUrl: string;
  /** Sent as `Authorization: Bearer <credentials>` (http_config.authorization). */
  bearerCredentials: string;
  /** Short by default so a test sees notifications within seconds. */
  groupWait?: string;
  groupInterval?: string;
  repeatInterval?: string;
  resolveTimeout?: string;
  log?: (message: string) => void;
}

/** An alert as Alertmanager's API v2 takes it (POST /api/v2/alerts). */
export interface PostableAlert {
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  startsAt?: string;
  endsAt?: string;
  generatorURL?: string;
}

export interface RunningAlertmanager {
  url: string;
  version: string;
  /** Sends alerts to Alertmanager the way Prometheus does. */
  postAlerts(alerts: PostableAlert[]): Promise<void>;
  /** Alertmanager's own output (for failure messages). */
  output(): string;
  stop(): Promise<void>;
}

/** The Alertmanager configuration: one route to one webhook receiver with bearer credentials. */
export function alertmanagerConfig(options: AlertmanagerOptions): string {
  return stringify({
    global: { resolve_timeout: options.resolveTimeout ?? '5m' },
    route: {
      receiver: 'alert-ingestion',
      group_by: ['alertname'],
      group_wait: options.groupWait ?? '1s',
      group_interval: options.groupInterval ?? '1s',
      repeat_interval: options.repeatInterval ?? '1h',
    },
    receivers: [
      {
        name: 'alert-ingestion',
        webhook_configs: [
          {
            url: options.webhookUrl,
            send_resolved: true,
            // Prometheus common HTTP client config, as Alertmanager 0.22+ reads it.
            http_config: { authorization: { type: 'Bearer', credentials: options.bearerCredentials } },
          },
        ],
      },
    ],
  });
}

/**
 * Runs a real Prometheus Alertmanager (from the Debian package, see ensureAlertmanager) on a free
 * port on 127.0.0.1, with clustering off, its configuration checked by amtool first, and resolves
 * once `/-/ready` answers.
 */
export async function startAlertmanager(options: AlertmanagerOptions): Promise<RunningAlertmanager> {
  const binaries = await ensureAlertmanager(options.repoRoot, options.log);
  const dir = await mkdtemp(join(tmpdir(), 'alertmanager-'));
  const configFile = join(dir, 'alertmanager.yml');
  await writeFile(configFile, alertmanagerConfig(options));
  await mkdir(join(dir, 'data'));
  await execFileAsync(binaries.amtool, ['check-config', configFile]).catch((error: unknown) => {
    const detail = error && typeof error === 'object' && 'stdout' in error ? String(error.stdout) : String(error);
    throw new Error(`amtool rejected the Alertmanager configuration:\n${detail}`);
  });

  const port = await findFreePort();
  const url = `http://127.0.0.1:${port}`;
  const lines: string[] = [];
  const process = SupervisedProcess.start({
    name: 'alertmanager',
    command: binaries.alertmanager,
    args: [
      `--config.file=${configFile}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      // No HA gossip: it would listen on 9094 and wait for peers before sending notifications.
      '--cluster.listen-address=',
      '--log.level=debug',
    ],
    cwd: binaries.workingDirectory,
    onLine: (line) => {
      lines.push(line);
      if (lines.length > 500) lines.shift();
    },
    stopTimeoutMs: 5_000,
  });
  const stop = async () => {
    await process.stop();
    await rm(dir, { recursive: true, force: true });
  };
  const output = () => lines.join('\n');

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (!process.isRunning) {
      await stop();
      throw new Error(`Alertmanager exited at start:\n${output()}`);
    }
    const ready = await fetch(`${url}/-/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`Alertmanager was not ready within 30 s:\n${output()}`);
    }
    await sleep(100);
  }

  return {
    url,
    version: binaries.version,
    output,
    stop,
    postAlerts: async (alerts) => {
      const response = await fetch(`${url}/api/v2/alerts`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(alerts),
      });
      if (!response.ok) throw new Error(`Alertmanager refused the alerts: ${response.status} ${await response.text()}`);
    },
  };
}
