import { Principal } from '@alert-ingestion/access';
import { CreatedUser, CurrentUser } from '@alert-ingestion/contracts';
import { PrismaService } from '@alert-ingestion/database';
import { ConflictError } from '@alert-ingestion/http';
import { Injectable } from '@nestjs/common';
import { AccessTokenService } from '../auth/access-token.service';
import { isUniqueViolation } from '../errors';

/** The name shown for the administrator token, which belongs to no user record. */
export const ADMINISTRATOR_USERNAME = 'administrator';

@Injectable()
export class UsersService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly tokens: AccessTokenService,
  ) {}

  /** Creates a user with a personal access token, in one transaction (409 when the username is taken). */
  async createUser(username: string): Promise<CreatedUser> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        const user = await tx.user.create({ data: { username } });
        const { token, expiresAt } = await this.tokens.issue(tx, user.id);
        return { id: Number(user.id), username: user.username, token, token_expires_at: expiresAt.toISOString() };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`The username "${username}" is taken.`, 'username_taken');
      throw error;
    }
  }

  currentUser(principal: Principal): CurrentUser {
    return principal.kind === 'admin'
      ? { id: null, username: ADMINISTRATOR_USERNAME, is_admin: true }
      : { id: Number(principal.userId), username: principal.username, is_admin: false };
  }
}
