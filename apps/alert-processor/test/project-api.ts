import { createHash, randomBytes } from 'node:crypto';
import { ProcessorHarness } from './processor-harness';

/** An answer of the processor's API: status, headers and parsed body (null when empty). */
export interface ApiAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** A member made for a spec: their user id, username and personal access token. */
export interface TestMember {
  id: number;
  username: string;
  token: string;
}

/**
 * A project of the processor's database with members, and calls to the alerts API as one of them:
 * users, tokens and memberships are written as integration-config writes them (the processor reads
 * them through access control).
 */
export class ProjectApi {
  private constructor(
    private readonly harness: ProcessorHarness,
    readonly projectId: string,
  ) {}

  static async create(harness: ProcessorHarness, tier: 'free' | 'premium' = 'premium'): Promise<ProjectApi> {
    const { rows } = await harness.db.query<{ id: string }>(`INSERT INTO projects (path, tier, updated_at) VALUES ($1, $2, now()) RETURNING id`, [
      `group/p-${randomBytes(4).toString('hex')}`,
      tier,
    ]);
    return new ProjectApi(harness, rows[0].id);
  }

  /** A new user with a token, a member at `accessLevel` (none: not a member). */
  async member(accessLevel: string | null, prefix = 'user'): Promise<TestMember> {
    const username = `${prefix}-${randomBytes(3).toString('hex')}`;
    const token = randomBytes(20).toString('hex');
    const { rows } = await this.harness.db.query<{ id: string }>('INSERT INTO users (username) VALUES ($1) RETURNING id', [username]);
    await this.harness.db.query(`INSERT INTO personal_access_tokens (user_id, token_sha256, expires_at) VALUES ($1, $2, now() + interval '1 day')`, [
      rows[0].id,
      createHash('sha256').update(token).digest('hex'),
    ]);
    if (accessLevel) await this.harness.db.query('INSERT INTO project_members (project_id, user_id, access_level) VALUES ($1, $2, $3)', [this.projectId, rows[0].id, accessLevel]);
    return { id: Number(rows[0].id), username, token };
  }

  /** `method /api/v4/projects/:id<path>` with `token` as Bearer. */
  async call<T = unknown>(method: string, path: string, token: string, body?: unknown): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.harness.baseUrl}/api/v4/projects/${this.projectId}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : null) as T };
  }
}
