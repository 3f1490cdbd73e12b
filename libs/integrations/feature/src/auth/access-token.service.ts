import { PrismaService } from '@alert-ingestion/database';
import {
  generatePersonalAccessToken,
  isPersonalAccessTokenUsable,
  personalAccessTokenExpiry,
  secretMatchesSha256,
  sha256Hex,
} from '@alert-ingestion/integrations-domain';
import { Inject, Injectable } from '@nestjs/common';
import { INTEGRATIONS_FEATURE_OPTIONS, IntegrationsFeatureOptions } from '../integrations-feature.options';
import { Principal } from './principal';

export type Authentication = { ok: true; principal: Principal } | { ok: false; reason: 'unknown' | 'expired' | 'revoked' };

/** A transaction-capable Prisma client (PrismaService or an interactive transaction). */
type TokenWriter = Pick<PrismaService, 'personalAccessToken'>;

/**
 * Personal access tokens: random, shown once, stored only as SHA-256, each with an expiry (one
 * year, spec 9.5). Tokens are looked up by their hash and compared again in constant time; the
 * administrator token is compared in constant time too.
 */
@Injectable()
export class AccessTokenService {
  private readonly adminTokenSha256: string;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(INTEGRATIONS_FEATURE_OPTIONS) options: IntegrationsFeatureOptions,
  ) {
    this.adminTokenSha256 = sha256Hex(options.adminToken);
  }

  /** Issues a new token for a user; returns the token itself (never stored) and its expiry. */
  async issue(db: TokenWriter, userId: bigint, now = new Date()): Promise<{ token: string; expiresAt: Date }> {
    const token = generatePersonalAccessToken();
    const expiresAt = personalAccessTokenExpiry(now);
    await db.personalAccessToken.create({ data: { user_id: userId, token_sha256: sha256Hex(token), expires_at: expiresAt } });
    return { token, expiresAt };
  }

  async authenticate(token: string, now = new Date()): Promise<Authentication> {
    if (secretMatchesSha256(token, this.adminTokenSha256)) return { ok: true, principal: { kind: 'admin' } };
    const row = await this.prisma.personalAccessToken.findUnique({
      where: { token_sha256: sha256Hex(token) },
      include: { user: { select: { id: true, username: true } } },
    });
    if (!row || !secretMatchesSha256(token, row.token_sha256)) return { ok: false, reason: 'unknown' };
    if (row.revoked_at !== null) return { ok: false, reason: 'revoked' };
    if (!isPersonalAccessTokenUsable(row, now)) return { ok: false, reason: 'expired' };
    return { ok: true, principal: { kind: 'user', userId: row.user.id, username: row.user.username } };
  }
}
