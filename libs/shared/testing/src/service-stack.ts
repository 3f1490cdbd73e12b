import type { AlertView, ProjectTier } from '@alert-ingestion/contracts';
import { randomBytes } from 'node:crypto';
import { serviceEnv } from './service-env';
import { ServiceName, ServiceProcess, startService } from './service-process';
import { createTestDatabase, TestDatabase } from './test-database';
import { createTestTopics, TestTopics } from './test-kafka';
import { setTimeout as sleep } from 'node:timers/promises';

/** The administrator token of a stack started for tests (ServiceStack.start). */
export const STACK_ADMIN_TOKEN = 'test-admin-token-for-the-stack';

/** Where the three services of a stack answer. */
export interface StackUrls {
  gateway: string;
  integrationConfig: string;
  processor: string;
}

/** A project made by `createProject`: its one active HTTP integration, with its URL and key. */
export interface StackProject {
  id: number;
  path: string;
  integration: { id: number; url: string; authorization_key: string };
}

export interface CreateProjectOptions {
  /** The project path is this plus a random suffix. Default `e2e`. */
  pathPrefix?: string;
  /** The integration's name on a Premium project (Free asks for none). */
  integrationName?: string;
}

/** Polls `read` until it reaches `expected` or `timeoutMs` is over; returns the last value read. */
export async function waitForCount(read: () => Promise<number>, expected: number, timeoutMs: number, intervalMs = 250): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let count = await read();
  while (count < expected && Date.now() < deadline) {
    await sleep(intervalMs);
    count = await read();
  }
  return count;
}

/**
 * The APIs of a running stack, called as the administrator: the management API of
 * integration-config and the alerts query API of the processor. Every call throws unless 2xx.
 */
export abstract class StackClient {
  abstract readonly urls: StackUrls;
  abstract readonly adminToken: string;

  /** A stack that is already running (benchmarks against `npm start`): only its addresses are known. */
  static of(urls: StackUrls, adminToken: string): StackClient {
    return new (class extends StackClient {
      readonly urls = urls;
      readonly adminToken = adminToken;
    })();
  }

  /** One call to `baseUrl` + `path`; the parsed body (undefined for an empty one, a 204) and the headers. */
  async request<T>(baseUrl: string, method: string, path: string, body?: unknown): Promise<{ body: T; headers: Headers }> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.adminToken}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${baseUrl}${path} -> ${response.status} ${text}`);
    return { body: (text === '' ? undefined : JSON.parse(text)) as T, headers: response.headers };
  }

  /** The management API (`/api/v4` of integration-config). */
  async management<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await this.request<T>(this.urls.integrationConfig, method, `/api/v4${path}`, body)).body;
  }

  /** A management API call's status and parsed body, whatever the status (for specs of refusals). */
  async managementAnswer<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const response = await fetch(`${this.urls.integrationConfig}/api/v4${path}`, {
      method,
      headers: { Authorization: `Bearer ${this.adminToken}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as T };
  }

  /**
   * A call to integration-config's `/api/v4` (its own API and the alerts API it forwards) as the
   * holder of `token`, as the console makes it: status, headers and parsed body (null when empty), whatever the status.
   */
  async answerAs<T>(token: string, method: string, path: string, body?: unknown): Promise<{ status: number; headers: Headers; body: T }> {
    const response = await fetch(`${this.urls.integrationConfig}/api/v4${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T };
  }

  /** Sends one payload to an integration's URL as a monitoring tool does; the iids it created or grouped into (throws unless 200). */
  async notify(integration: StackProject['integration'], payload: unknown): Promise<number[]> {
    const response = await fetch(integration.url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${integration.authorization_key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(payload),
    });
    const text = await response.text();
    if (response.status !== 200) throw new Error(`POST ${integration.url} -> ${response.status} ${text}`);
    return (JSON.parse(text) as Array<{ iid: number }>).map((alert) => alert.iid);
  }

  /** The processor's API (`/api/v4` of alert-processor). */
  async processorApi<T>(method: string, path: string, body?: unknown): Promise<T> {
    return (await this.request<T>(this.urls.processor, method, `/api/v4${path}`, body)).body;
  }

  /** A project with one active HTTP integration, through the management API; returns its URL and key. */
  async createProject(tier: ProjectTier, options: CreateProjectOptions = {}): Promise<StackProject> {
    const project = await this.management<{ id: number; path: string }>('POST', '/projects', { path: `${options.pathPrefix ?? 'e2e'}-${randomBytes(5).toString('hex')}`, tier });
    const created = await this.management<{ id: number }>('POST', `/projects/${project.id}/alert_integrations`, {
      type: 'http',
      active: true,
      ...(tier === 'premium' ? { name: options.integrationName ?? 'End-to-end endpoint' } : {}),
    });
    const integration = await this.management<StackProject['integration']>('GET', `/projects/${project.id}/alert_integrations/${created.id}`);
    return { id: project.id, path: project.path, integration };
  }

  /** Every stored alert of a project, newest first, through the processor's query API. */
  async alerts(projectId: number): Promise<AlertView[]> {
    const all: AlertView[] = [];
    for (let page = 1; ; page++) {
      const alerts = await this.processorApi<AlertView[]>('GET', `/projects/${projectId}/alerts?per_page=100&page=${page}`);
      all.push(...alerts);
      if (alerts.length < 100) return all;
    }
  }

  /** How many alerts a project has stored (the query API's X-Total). */
  async alertCount(projectId: number): Promise<number> {
    const { headers } = await this.request<unknown[]>(this.urls.processor, 'GET', `/api/v4/projects/${projectId}/alerts?per_page=1`);
    return Number(headers.get('x-total'));
  }
}

/** The environment of each service of a stack, on top of `all`. */
export interface ServiceStackOptions {
  /** Environment of every service. */
  all?: Record<string, string>;
  gateway?: Record<string, string>;
  processor?: Record<string, string>;
  integrationConfig?: Record<string, string>;
  /** Keep every line each service writes (ServiceProcess.allOutput). */
  keepAllOutput?: boolean;
  /** Node options of the gateway and the processor, e.g. `--cpu-prof` (the benchmarks). */
  nodeArgs?: string[];
}

/** What a stack runs on: the complete environment every service shares (database, Kafka, topic prefix, admin token). */
export interface StackBase {
  env: { DATABASE_URL: string; KAFKA_TOPIC_PREFIX: string; ADMIN_TOKEN: string; [variable: string]: string };
  /** Dropped when the stack stops (a test's database and topics); a benchmark cleans up its own. */
  database?: TestDatabase;
  topics?: TestTopics;
}

/**
 * The whole product as users run it: alert-processor, gateway and integration-config as separate
 * Node processes (the built dist/), sharing one database and one topic prefix; integration-config
 * links to the gateway (GATEWAY_PUBLIC_URL) and the processor (ALERT_PROCESSOR_URL) of the stack.
 */
export class ServiceStack extends StackClient {
  /** Gateways and processors started besides the first ones. */
  private readonly extras: ServiceProcess[] = [];

  private constructor(
    private readonly base: StackBase,
    private readonly options: ServiceStackOptions,
    public processor: ServiceProcess,
    readonly gateway: ServiceProcess,
    readonly integrationConfig: ServiceProcess,
  ) {
    super();
  }

  get urls(): StackUrls {
    return { gateway: this.gateway.url, integrationConfig: this.integrationConfig.url, processor: this.processor.url };
  }

  get adminToken(): string {
    return this.base.env.ADMIN_TOKEN;
  }

  /** As StackClient's; a call that fails while services of the stack have ended also says which, how, and their last lines. */
  override async request<T>(baseUrl: string, method: string, path: string, body?: unknown): Promise<{ body: T; headers: Headers }> {
    try {
      return await super.request<T>(baseUrl, method, path, body);
    } catch (error) {
      const ended = [this.processor, this.gateway, this.integrationConfig, ...this.extras].filter((service) => !service.process.isRunning);
      if (ended.length === 0) throw error;
      const accounts = ended.map((service) => `${service.name} (${service.url}) has ended (${service.process.exitDescription}); its last lines:\n${service.recentOutput().split('\n').slice(-40).join('\n')}`);
      throw new Error(`${method} ${baseUrl}${path}: ${error instanceof Error ? error.message : String(error)}. ${accounts.join('\n')}`, { cause: error });
    }
  }

  /** The database of a test stack (ServiceStack.start). */
  get database(): TestDatabase {
    if (!this.base.database) throw new Error('this stack runs on a database it was given');
    return this.base.database;
  }

  /** The topics of a test stack (ServiceStack.start). */
  get topics(): TestTopics {
    if (!this.base.topics) throw new Error('this stack runs on topics it was given');
    return this.base.topics;
  }

  /** A stack for an integration spec: a fresh database and topic prefix of the run's test cluster (global setup). */
  static async start(options: ServiceStackOptions = {}): Promise<ServiceStack> {
    const [database, topics] = await Promise.all([createTestDatabase(), createTestTopics()]);
    const env = { ...serviceEnv({ DATABASE_URL: database.url, KAFKA_TOPIC_PREFIX: topics.prefix }), DATABASE_URL: database.url, KAFKA_TOPIC_PREFIX: topics.prefix, ADMIN_TOKEN: STACK_ADMIN_TOKEN };
    return ServiceStack.startOn({ env, database, topics }, options);
  }

  /** A stack on a database and Kafka prepared by the caller (a benchmark's own). */
  static async startOn(given: StackBase, options: ServiceStackOptions = {}): Promise<ServiceStack> {
    // integration-config and the gateway share INTEGRATION_KEY_ENCRYPTION_KEY (signing secrets
    // travel encrypted under a key derived from it): one per stack, unless the caller gives one.
    const base: StackBase = { ...given, env: { INTEGRATION_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'), ...given.env } };
    const started: ServiceProcess[] = [];
    // The processor and the gateway do not need each other to start; integration-config links to both.
    const first = await Promise.allSettled([startStackService(base, options, 'alert-processor'), startStackService(base, options, 'gateway')]);
    for (const outcome of first) if (outcome.status === 'fulfilled') started.push(outcome.value);
    const failed = first.find((outcome) => outcome.status === 'rejected');
    if (failed) {
      await stopAndDrop(base, started);
      throw failed.reason;
    }
    const [processor, gateway] = started;
    try {
      const links = { GATEWAY_PUBLIC_URL: gateway.url, ALERT_PROCESSOR_URL: processor.url };
      const integrationConfig = await startStackService({ ...base, env: { ...base.env, ...links } }, options, 'integration-config');
      return new ServiceStack(base, options, processor, gateway, integrationConfig);
    } catch (error) {
      await stopAndDrop(base, started);
      throw error;
    }
  }

  /** Starts the processor again (after a kill) on its address, with the same database and topics. */
  async restartProcessor(): Promise<void> {
    this.processor = await startStackService(this.base, this.options, 'alert-processor', {}, this.processor.port);
  }

  /** Another gateway instance on the same topics (stopped with the stack). */
  async startGateway(env: Record<string, string> = {}): Promise<ServiceProcess> {
    const gateway = await startStackService(this.base, this.options, 'gateway', env);
    this.extras.push(gateway);
    return gateway;
  }

  /** Another processor instance on the same database and topics, in the same consumer group (stopped with the stack). */
  async startProcessor(env: Record<string, string> = {}): Promise<ServiceProcess> {
    const processor = await startStackService(this.base, this.options, 'alert-processor', env);
    this.extras.push(processor);
    return processor;
  }

  /** Stops every service, then drops the test database and topics. */
  async stop(): Promise<void> {
    await stopAndDrop(this.base, [this.gateway, this.integrationConfig, this.processor, ...this.extras]);
  }
}

/** Stops `services`, then drops the stack's test database and topics (when it has them). */
async function stopAndDrop(base: StackBase, services: ServiceProcess[]): Promise<void> {
  await Promise.all(services.map((service) => service.stop()));
  await base.database?.drop();
  await base.topics?.drop();
}

/**
 * Starts a service of a stack, with the stack's environment, then `all`, then the service's own, then
 * `env`; `nodeArgs` go to the gateway and the processor.
 */
function startStackService(base: StackBase, options: ServiceStackOptions, name: ServiceName, env: Record<string, string> = {}, port?: number): Promise<ServiceProcess> {
  const own = { gateway: options.gateway, 'alert-processor': options.processor, 'integration-config': options.integrationConfig }[name];
  const nodeArgs = name === 'integration-config' ? undefined : options.nodeArgs;
  // Every gateway of a stack (and a stack beside `npm start`) takes a free reply port, unless told otherwise.
  const replyPort: Record<string, string> = name === 'gateway' ? { GATEWAY_REPLY_PORT: '0' } : {};
  return startService(name, { ...replyPort, ...base.env, ...options.all, ...own, ...env }, { keepAllOutput: options.keepAllOutput, nodeArgs, port });
}
