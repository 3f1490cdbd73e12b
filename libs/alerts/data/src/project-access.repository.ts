import { createHash } from 'node:crypto';
import { AlertsDatabase } from './alerts-database';

export const ACCESS_LEVELS = ['guest', 'reporter', 'developer', 'maintainer', 'owner'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** Who a personal access token belongs to, and their role in one project. */
export interface ProjectAccess {
  projectExists: boolean;
  /** Null: no valid token. */
  userId: string | null;
  /** Null: the user is not a member of the project. */
  accessLevel: AccessLevel | null;
}

/**
 * What authorisation needs to know about users, tokens, projects and members. integration-config
 * owns those tables; this is the one sanctioned read-only cross-service read (ARCHITECTURE.md
 * exception). It sits behind this interface so a Kafka-fed view can replace it later.
 */
export interface ProjectAccessReader {
  projectAccess(token: string, projectId: string): Promise<ProjectAccess>;
  projectExists(projectId: string): Promise<boolean>;
}

/** Reads integration-config's tables directly: personal_access_tokens (sha256 hex), projects, project_members. */
export class SqlProjectAccessReader implements ProjectAccessReader {
  constructor(private readonly database: AlertsDatabase) {}

  async projectAccess(token: string, projectId: string): Promise<ProjectAccess> {
    const tokenSha256 = createHash('sha256').update(token, 'utf8').digest('hex');
    const result = await this.database.pool.query<{ project_exists: boolean; user_id: string | null; access_level: AccessLevel | null }>(
      `SELECT EXISTS (SELECT 1 FROM projects WHERE id = $2) AS project_exists, t.user_id, m.access_level
       FROM (SELECT 1) AS one
       LEFT JOIN personal_access_tokens t
         ON t.token_sha256 = $1 AND t.revoked_at IS NULL AND t.expires_at > now()
       LEFT JOIN project_members m ON m.user_id = t.user_id AND m.project_id = $2`,
      [tokenSha256, projectId],
    );
    const row = result.rows[0];
    return { projectExists: row.project_exists, userId: row.user_id, accessLevel: row.access_level };
  }

  async projectExists(projectId: string): Promise<boolean> {
    const result = await this.database.pool.query('SELECT 1 FROM projects WHERE id = $1', [projectId]);
    return (result.rowCount ?? 0) > 0;
  }
}
