import { AccessLevel, hasAccessLevel, ProjectTier } from '@alert-ingestion/contracts';
import { SqlQuery } from '@alert-ingestion/sql';
import { ProjectMembership, StoredAccessToken } from './access-rules';

/**
 * What access control reads from integration-config's tables (users, personal_access_tokens,
 * projects, project_members). The processor reads those tables only through this class: it is the
 * one place another service depends on integration-config's data.
 */
export class AccessReader {
  constructor(private readonly query: SqlQuery) {}

  async accessToken(tokenSha256: string): Promise<StoredAccessToken | undefined> {
    const rows = await this.query<{ user_id: string; username: string; expires_at: Date; revoked_at: Date | null }>(
      `SELECT t.user_id::text AS user_id, u.username, t.expires_at, t.revoked_at
       FROM personal_access_tokens t JOIN users u ON u.id = t.user_id
       WHERE t.token_sha256 = $1`,
      [tokenSha256],
    );
    const row = rows[0];
    return row && { userId: BigInt(row.user_id), username: row.username, expiresAt: new Date(row.expires_at), revokedAt: row.revoked_at && new Date(row.revoked_at) };
  }

  /** The project with the user's membership (none for the administrator, `userId` null). */
  async projectMembership(projectId: bigint, userId: bigint | null): Promise<ProjectMembership | undefined> {
    const rows = await this.query<{ project_id: string; tier: ProjectTier; access_level: AccessLevel | null }>(
      `SELECT p.id::text AS project_id, p.tier::text AS tier, m.access_level::text AS access_level
       FROM projects p LEFT JOIN project_members m ON m.project_id = p.id AND m.user_id = $2::bigint
       WHERE p.id = $1::bigint`,
      [projectId.toString(), userId === null ? null : userId.toString()],
    );
    const row = rows[0];
    return row && { projectId: BigInt(row.project_id), tier: row.tier, accessLevel: row.access_level };
  }

  /** The usernames of users by id (decimal strings); a user that no longer exists is left out. One query. */
  async usernames(userIds: readonly string[]): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.query<{ id: string; username: string }>(`SELECT id::text AS id, username FROM users WHERE id = ANY($1::bigint[])`, [userIds]);
    return new Map(rows.map((row) => [row.id, row.username]));
  }

  /** The members of a project with at least `minimum` (an alert's assignee candidates: developer+), by username. */
  async projectMembers(projectId: bigint, minimum: AccessLevel): Promise<Array<{ id: string; username: string; accessLevel: AccessLevel }>> {
    const rows = await this.query<{ id: string; username: string; access_level: AccessLevel }>(
      `SELECT u.id::text AS id, u.username, m.access_level::text AS access_level
       FROM project_members m JOIN users u ON u.id = m.user_id
       WHERE m.project_id = $1::bigint ORDER BY u.username`,
      [projectId.toString()],
    );
    return rows.filter((row) => hasAccessLevel(row.access_level, minimum)).map((row) => ({ id: row.id, username: row.username, accessLevel: row.access_level }));
  }

  /** The user ids of every member of each project (on-call schedules: who may still be on call), by project id. One query. */
  async memberIdsByProject(projectIds: readonly string[]): Promise<Map<string, Set<string>>> {
    const ids = [...new Set(projectIds)];
    const members = new Map(ids.map((id) => [id, new Set<string>()]));
    if (ids.length === 0) return members;
    const rows = await this.query<{ project_id: string; user_id: string }>(
      `SELECT project_id::text AS project_id, user_id::text AS user_id FROM project_members WHERE project_id = ANY($1::bigint[])`,
      [ids],
    );
    for (const row of rows) members.get(row.project_id)?.add(row.user_id);
    return members;
  }

  /** The members of the projects whose role is one of `levels` and who have an email address (alert emails). */
  async membersWithEmail(projectIds: readonly string[], levels: readonly AccessLevel[]): Promise<Array<{ projectId: string; userId: string; email: string }>> {
    if (projectIds.length === 0 || levels.length === 0) return [];
    const rows = await this.query<{ project_id: string; user_id: string; email: string }>(
      `SELECT m.project_id::text AS project_id, u.id::text AS user_id, u.email
       FROM project_members m JOIN users u ON u.id = m.user_id
       WHERE m.project_id = ANY($1::bigint[]) AND m.access_level::text = ANY($2::text[]) AND u.email IS NOT NULL
       ORDER BY m.project_id, u.id`,
      [[...new Set(projectIds)], [...levels]],
    );
    return rows.map((row) => ({ projectId: row.project_id, userId: row.user_id, email: row.email }));
  }

  /** The paths of projects (`acme/web`), by id; a project that is gone is left out. */
  async projectPaths(projectIds: readonly string[]): Promise<Map<string, string>> {
    if (projectIds.length === 0) return new Map();
    const rows = await this.query<{ id: string; path: string }>('SELECT id::text AS id, path FROM projects WHERE id = ANY($1::bigint[])', [[...new Set(projectIds)]]);
    return new Map(rows.map((row) => [row.id, row.path]));
  }
}
