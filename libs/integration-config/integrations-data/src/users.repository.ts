import { ConfigDatabase } from './config-database';

/** A user as stored (`users`). */
export interface UserRow {
  id: bigint;
  username: string;
  email: string | null;
}

/** The columns a new user is created with; a new column of `users` is one more field here. */
export interface NewUser {
  username: string;
  email: string | null;
}

/** A personal access token as stored: only its SHA-256, never the token itself. */
export interface NewPersonalAccessToken {
  tokenSha256: string;
  expiresAt: Date;
}

/** The columns of `users` the answers show. */
const USER_COLUMNS = { id: true, username: true, email: true } as const;

/**
 * `users` and `personal_access_tokens`. Reading tokens to authenticate a request is the shared
 * access control's (`AccessReader` of @alert-ingestion/access), not this repository's.
 */
export class UsersRepository {
  constructor(private readonly database: ConfigDatabase) {}

  /** Creates the user and its first token in one transaction; a taken username is a unique violation. */
  createWithToken(user: NewUser, token: NewPersonalAccessToken): Promise<UserRow> {
    return this.database.transaction(async (tx) => {
      const client = this.database.client(tx);
      const created = await client.user.create({ data: { username: user.username, email: user.email }, select: USER_COLUMNS });
      await client.personalAccessToken.create({ data: { user_id: created.id, token_sha256: token.tokenSha256, expires_at: token.expiresAt } });
      return created;
    });
  }

  /** Sets (or with null clears) the user's email; null when there is no such user; a taken address is a unique violation. */
  async updateEmail(id: bigint, email: string | null): Promise<UserRow | null> {
    const { count } = await this.database.client().user.updateMany({ where: { id }, data: { email } });
    return count === 0 ? null : this.findById(id);
  }

  findByUsername(username: string): Promise<UserRow | null> {
    return this.database.client().user.findUnique({ where: { username }, select: USER_COLUMNS });
  }

  findById(id: bigint): Promise<UserRow | null> {
    return this.database.client().user.findUnique({ where: { id }, select: USER_COLUMNS });
  }

  /**
   * Users who are not members of the project and whose username contains `search`
   * (case-insensitive), by username, at most `limit`.
   */
  findNonMembers(projectId: bigint, search: string, limit: number): Promise<UserRow[]> {
    return this.database.client().user.findMany({
      where: { username: { contains: search, mode: 'insensitive' }, memberships: { none: { project_id: projectId } } },
      select: USER_COLUMNS,
      orderBy: { username: 'asc' },
      take: limit,
    });
  }
}
