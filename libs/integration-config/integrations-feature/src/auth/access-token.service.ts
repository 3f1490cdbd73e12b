import { PrismaService } from '@alert-ingestion/database';
import { sha256Hex } from '@alert-ingestion/crypto';
import { generatePersonalAccessToken, personalAccessTokenExpiry } from '@alert-ingestion/integrations-domain';
import { Injectable } from '@nestjs/common';

/** A transaction-capable Prisma client (PrismaService or an interactive transaction). */
type TokenWriter = Pick<PrismaService, 'personalAccessToken'>;

/**
 * Issues personal access tokens: random, shown once, stored only as SHA-256, each with an expiry
 * (one year, spec 9.5). Checking them is the shared access control's (@alert-ingestion/access).
 */
@Injectable()
export class AccessTokenService {
  /** Issues a new token for a user; returns the token itself (never stored) and its expiry. */
  async issue(db: TokenWriter, userId: bigint, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
    const token = generatePersonalAccessToken();
    const expiresAt = personalAccessTokenExpiry(now);
    await db.personalAccessToken.create({ data: { user_id: userId, token_sha256: sha256Hex(token), expires_at: expiresAt } });
    return { token, expiresAt };
  }
}
