import { Principal } from '@alert-ingestion/access';
import { CreatedUser, CurrentUser, User } from '@alert-ingestion/contracts';
import { sha256Hex } from '@alert-ingestion/crypto';
import { BadRequestError, ConflictError, NotFoundError } from '@alert-ingestion/http';
import { UserRow, UsersRepository } from '@alert-ingestion/integrations-data';
import { isUniqueViolation } from '@alert-ingestion/sql';
import { generatePersonalAccessToken, normaliseEmail, personalAccessTokenExpiry } from '@alert-ingestion/integrations-domain';
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
  async createUser(username: string, emailGiven?: string | null): Promise<CreatedUser> {
    const token = generatePersonalAccessToken();
    const expiresAt = personalAccessTokenExpiry(new Date());
    const email = normaliseEmail(emailGiven);
    try {
      const user = await this.users.createWithToken({ username, email }, { tokenSha256: sha256Hex(token), expiresAt });
      return { ...userView(user), token, token_expires_at: expiresAt.toISOString() };
    } catch (error) {
      if (isUniqueViolation(error) && email !== null && !(await this.usernameTaken(username))) throw emailTaken(email);
      if (isUniqueViolation(error)) throw new ConflictError(`The username "${username}" is taken.`, 'username_taken', 'username');
      throw error;
    }
  }

  async currentUser(principal: Principal): Promise<CurrentUser> {
    if (principal.kind === 'admin') return { id: null, username: ADMINISTRATOR_USERNAME, email: null, is_admin: true };
    const user = await this.users.findById(principal.userId);
    return { id: Number(principal.userId), username: principal.username, email: user?.email ?? null, is_admin: false };
  }

  /** Sets or clears a user's email address (the administrator for anyone, a user for themselves); 409 when another user has it. */
  async updateEmail(userId: bigint, emailGiven: string | null): Promise<User> {
    const email = normaliseEmail(emailGiven);
    try {
      const user = await this.users.updateEmail(userId, email);
      if (!user) throw new NotFoundError(`User ${userId} not found.`, 'user_not_found');
      return userView(user);
    } catch (error) {
      if (isUniqueViolation(error) && email !== null) throw emailTaken(email);
      throw error;
    }
  }

  /** The user behind the token may change their own email; the administrator token belongs to no user. */
  updateOwnEmail(principal: Principal, email: string | null): Promise<User> {
    if (principal.kind === 'admin') throw new BadRequestError('no_user', 'The administrator token belongs to no user: set addresses with PUT /users/:id.');
    return this.updateEmail(principal.userId, email);
  }

  private async usernameTaken(username: string): Promise<boolean> {
    return (await this.users.findByUsername(username)) !== null;
  }
}

function userView(user: UserRow): User {
  return { id: Number(user.id), username: user.username, email: user.email };
}

function emailTaken(email: string): ConflictError {
  return new ConflictError(`The email address ${email} belongs to another user.`, 'email_taken', 'email');
}
