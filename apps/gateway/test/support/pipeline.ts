import {
  createTestDatabase,
  createTestTopics,
  serviceEnv,
  ServiceProcess,
  startService,
  TestDatabase,
  TestTopics,
} from '@alert-ingestion/testing';
import { randomBytes } from 'node:crypto';

export const ADMIN_TOKEN = 'test-admin-token-for-the-pipeline';

export interface PipelineOptions {
  /** Environment of every service. */
  all?: Record<string, string>;
  gateway?: Record<string, string>;
  processor?: Record<string, string>;
  integrationConfig?: Record<string, string>;
  /** Keep every line each service writes (ServiceProcess.allOutput). */
  keepAllOutput?: boolean;
}

export interface Project {
  id: number;
  integration: { id: number; url: string; authorization_key: string };
}

/** An alert as the processor's query API returns it (CONTRACT.md "alert"). */
export interface StoredAlert {
  iid: number;
  title: string;
  severity: string;
  status: string;
  events: number;
  started_at: string;
  ended_at: string | null;
  fingerprint: string | null;
  description: string | null;
  payload: unknown;
}

/**
 * The whole product as users run it: alert-processor, gateway and integration-config as separate
 * Node processes (the built dist/), sharing one fresh database and one topic prefix.
 */
export class Pipeline {
  private readonly extraGateways: ServiceProcess[] = [];

  private constructor(
    readonly database: TestDatabase,
    readonly topics: TestTopics,
    private readonly baseEnv: { DATABASE_URL: string; KAFKA_TOPIC_PREFIX: string; ADMIN_TOKEN: string; [variable: string]: string },
    private readonly options: PipelineOptions,
    public processor: ServiceProcess,
    readonly gateway: ServiceProcess,
    readonly integrationConfig: ServiceProcess,
  ) {}

  static async start(options: PipelineOptions = {}): Promise<Pipeline> {
    const database = await createTestDatabase();
    const topics = await createTestTopics();
    const baseEnv = { DATABASE_URL: database.url, KAFKA_TOPIC_PREFIX: topics.prefix, ADMIN_TOKEN, ...options.all };
    const processOptions = { keepAllOutput: options.keepAllOutput };
    const started: ServiceProcess[] = [];
    try {
      const processor = await startService('alert-processor', serviceEnv({ ...baseEnv, ...options.processor }), processOptions);
      started.push(processor);
      const gateway = await startService('gateway', serviceEnv({ ...baseEnv, ...options.gateway }), processOptions);
      started.push(gateway);
      const integrationConfig = await startService(
        'integration-config',
        serviceEnv({
          ...baseEnv,
          GATEWAY_PUBLIC_URL: gateway.url,
          INTEGRATION_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
          ...options.integrationConfig,
        }),
        processOptions,
      );
      return new Pipeline(database, topics, baseEnv, options, processor, gateway, integrationConfig);
    } catch (error) {
      await Promise.all(started.map((service) => service.stop()));
      await database.drop();
      await topics.drop();
      throw error;
    }
  }

  /** Starts the processor again (after a kill), on a new port, with the same database and topics. */
  async restartProcessor(): Promise<void> {
    this.processor = await startService('alert-processor', serviceEnv({ ...this.baseEnv, ...this.options.processor }), { keepAllOutput: this.options.keepAllOutput });
  }

  /** Another gateway instance on the same topics (stopped with the pipeline). */
  async startGateway(env: Record<string, string> = {}): Promise<ServiceProcess> {
    const gateway = await startService('gateway', serviceEnv({ ...this.baseEnv, ...this.options.gateway, ...env }), { keepAllOutput: this.options.keepAllOutput });
    this.extraGateways.push(gateway);
    return gateway;
  }

  async stop(): Promise<void> {
    await Promise.all([this.gateway.stop(), this.integrationConfig.stop(), this.processor.stop(), ...this.extraGateways.map((gateway) => gateway.stop())]);
    await this.database.drop();
    await this.topics.drop();
  }

  /** A project with one active HTTP integration, through the management API; returns its URL and key. */
  async createProject(tier: 'free' | 'premium'): Promise<Project> {
    const project = await this.api<{ id: number }>(this.integrationConfig.url, 'POST', '/api/v4/projects', {
      path: `e2e-${randomBytes(5).toString('hex')}`,
      tier,
    });
    const created = await this.api<{ id: number }>(this.integrationConfig.url, 'POST', `/api/v4/projects/${project.id}/alert_integrations`, {
      type: 'http',
      active: true,
      ...(tier === 'premium' ? { name: 'End-to-end endpoint' } : {}),
    });
    const integration = await this.api<Project['integration']>(
      this.integrationConfig.url,
      'GET',
      `/api/v4/projects/${project.id}/alert_integrations/${created.id}`,
    );
    return { id: project.id, integration };
  }

  /** Every alert of a project, newest first, through the processor's query API. */
  async alerts(projectId: number): Promise<StoredAlert[]> {
    const all: StoredAlert[] = [];
    for (let page = 1; ; page++) {
      const alerts = await this.api<StoredAlert[]>(this.processor.url, 'GET', `/api/v4/projects/${projectId}/alerts?per_page=100&page=${page}`);
      all.push(...alerts);
      if (alerts.length < 100) return all;
    }
  }

  /** The management API as the administrator (throws unless 2xx). */
  management<T>(method: string, path: string, body?: unknown): Promise<T> {
    return this.api<T>(this.integrationConfig.url, method, `/api/v4${path}`, body);
  }

  /** The processor's API as the administrator (throws unless 2xx). */
  processorApi<T>(method: string, path: string, body?: unknown): Promise<T> {
    return this.api<T>(this.processor.url, method, `/api/v4${path}`, body);
  }

  private async api<T>(baseUrl: string, method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} -> ${response.status} ${text}`);
    // 204 (a delete) has no body.
    return (text === '' ? undefined : JSON.parse(text)) as T;
  }
}
