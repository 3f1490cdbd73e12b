import { Principal } from '@alert-ingestion/access';
import { CreatedUser, CurrentUser } from '@alert-ingestion/contracts';
import { sha256Hex } from '@alert-ingestion/crypto';
import { ConflictError } from '@alert-ingestion/http';
import { UsersRepository } from '@alert-ingestion/integrations-data';
import { isUniqueViolation } from '@alert-ingestion/sql';
import { generatePersonalAccessToken, personalAccessTokenExpiry } from '@alert-ingestion/integrations-domain';
import { Injectable } from '@nestjs/common';

/** The name shown for the administrator token, which belongs to no user record. */
export const ADMINISTRATOR_USERNAME = 'administrator';

@Injectable()
export class UsersService {
  constructor(private readonly users: UsersRepository) {}

  /**
   * Creates a user with a personal access token, in one transaction (409 when the username is taken).
   * The token is random, shown only in this answer and stored only as SHA-256, with an expiry (one
   * year, spec 9.5). Checking tokens is the shared access control's (@alert-ingestion/access).
   */
  async createUser(username: string): Promise<CreatedUser> {
    const token = generatePersonalAccessToken();
    const expiresAt = personalAccessTokenExpiry(new Date());
    try {
      const user = await this.users.createWithToken({ username }, { tokenSha256: sha256Hex(token), expiresAt });
      return { id: Number(user.id), username: user.username, token, token_expires_at: expiresAt.toISOString() };
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`The username "${username}" is taken.`, 'username_taken', 'username');
      throw error;
    }
  }

  currentUser(principal: Principal): CurrentUser {
    return principal.kind === 'admin'
      ? { id: null, username: ADMINISTRATOR_USERNAME, is_admin: true }
      : { id: Number(principal.userId), username: principal.username, is_admin: false };
  }
}
