import { UnauthorizedError } from '@alert-ingestion/http';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { AccessTokenService } from './access-token.service';
import { ManagementRequest } from './principal';

/** `Authorization: Bearer <token>` or `PRIVATE-TOKEN: <token>` (CONTRACT.md "Management API"). */
export function presentedToken(headers: ManagementRequest['headers']): string | undefined {
  const privateToken = headers['private-token'];
  if (typeof privateToken === 'string' && privateToken.trim() !== '') return privateToken.trim();
  const authorization = headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (match) return match[1];
  }
  return undefined;
}

const REASONS = {
  unknown: 'The token is not valid.',
  expired: 'The token has expired.',
  revoked: 'The token has been revoked.',
} as const;

/** 401 for a missing, unknown, expired or revoked token; otherwise records who is calling. */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(private readonly tokens: AccessTokenService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ManagementRequest>();
    if (request.principal) return true;
    const token = presentedToken(request.headers);
    if (!token) {
      throw new UnauthorizedError('A token is required: send "Authorization: Bearer <token>" or "PRIVATE-TOKEN: <token>".');
    }
    const authentication = await this.tokens.authenticate(token);
    if (!authentication.ok) throw new UnauthorizedError(REASONS[authentication.reason]);
    request.principal = authentication.principal;
    return true;
  }
}
