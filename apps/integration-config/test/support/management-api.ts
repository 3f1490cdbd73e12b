import { loadConfig } from '@alert-ingestion/config';
import { createTestDatabase, createTestTopics, serviceEnv, TestDatabase, TestTopics } from '@alert-ingestion/testing';
import { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { createIntegrationConfigApp, CreateIntegrationConfigAppOptions } from '../../src/integration-config.app';
import { IntegrationConfigEnv } from '../../src/integration-config.env';

export const ADMIN_TOKEN = 'test-admin-token-for-integration-config';

export interface Answer<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  token?: string;
  /** Send the token as `PRIVATE-TOKEN` instead of `Authorization: Bearer`. */
  privateTokenHeader?: boolean;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A running integration-config on an ephemeral port, with its own database and topics. */
export class ManagementApi {
  private constructor(
    readonly app: INestApplication,
    readonly url: string,
    readonly env: IntegrationConfigEnv,
    readonly database: TestDatabase,
    readonly topics: TestTopics,
  ) {}

  static async start(
    overrides: Record<string, string | undefined> = {},
    reuse?: { database: TestDatabase; topics: TestTopics },
    appOptions: CreateIntegrationConfigAppOptions = {},
  ): Promise<ManagementApi> {
    const database = reuse?.database ?? (await createTestDatabase());
    const topics = reuse?.topics ?? (await createTestTopics());
    const env = loadConfig(
      IntegrationConfigEnv,
      serviceEnv({
        DATABASE_URL: database.url,
        KAFKA_TOPIC_PREFIX: topics.prefix,
        ADMIN_TOKEN,
        INTEGRATION_KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
        ...overrides,
      }),
    );
    const app = await createIntegrationConfigApp(env, appOptions);
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    return new ManagementApi(app, `http://127.0.0.1:${port}`, env, database, topics);
  }

  /** Stops the app; `keep` leaves database and topics for a restart. */
  async stop(keep = false): Promise<void> {
    await this.app.close();
    if (!keep) {
      await this.database.drop();
      await this.topics.drop();
    }
  }

  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token !== undefined) {
      if (options.privateTokenHeader) headers['PRIVATE-TOKEN'] = options.token;
      else headers['Authorization'] = `Bearer ${options.token}`;
    }
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['Content-Type'] ??= 'application/json';
    }
    const response = await fetch(`${this.url}/api/v4${path}`, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  /** Runs SQL against the service's database (to set up states the API cannot, e.g. an expired token). */
  async sql<R extends Record<string, unknown> = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<R[]> {
    const client = new Client({ connectionString: this.database.url });
    await client.connect();
    try {
      return (await client.query<R>(text, values)).rows;
    } finally {
      await client.end();
    }
  }

  // Shortcuts for the set-up steps most specs share.

  async createUser(username: string): Promise<{ id: number; token: string }> {
    const answer = await this.request<{ id: number; token: string }>('POST', '/users', { token: ADMIN_TOKEN, body: { username } });
    if (answer.status !== 201) throw new Error(`POST /users: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  }

  async createProject(path: string, tier: 'free' | 'premium'): Promise<number> {
    const answer = await this.request<{ id: number }>('POST', '/projects', { token: ADMIN_TOKEN, body: { path, tier } });
    if (answer.status !== 201) throw new Error(`POST /projects: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.id;
  }

  async addMember(projectId: number, userId: number, accessLevel: string): Promise<void> {
    const answer = await this.request('POST', `/projects/${projectId}/members`, { token: ADMIN_TOKEN, body: { user_id: userId, access_level: accessLevel } });
    if (answer.status !== 201) throw new Error(`POST members: ${answer.status} ${JSON.stringify(answer.body)}`);
  }

  /** A new user with the given role in the project; returns the user's token. */
  async member(projectId: number, accessLevel: string): Promise<string> {
    const user = await this.createUser(`${accessLevel}-${randomBytes(4).toString('hex')}`);
    await this.addMember(projectId, user.id, accessLevel);
    return user.token;
  }
}
