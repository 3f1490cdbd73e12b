import { AccessLevel } from '@alert-ingestion/contracts';
import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AccessControl } from '../access-control';
import { AccessRequest } from './access-request';

export const REQUIRED_PROJECT_ACCESS = 'access:required-project-access';
export const ADMIN_ONLY = 'access:admin-only';

/** Marks a route under `/projects/:id` with the lowest role that may use it. */
export const RequiresProjectAccess = (level: AccessLevel) => SetMetadata(REQUIRED_PROJECT_ACCESS, level);
/** Marks a route that only the administrator may use. */
export const RequiresAdmin = () => SetMetadata(ADMIN_ONLY, true);

/** 401 for a missing, unknown, expired or revoked token; otherwise records who is calling. */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(private readonly access: AccessControl) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AccessRequest>();
    request.principal ??= await this.access.authenticate(request.headers);
    return true;
  }
}

/**
 * Runs after AuthenticationGuard: administrator-only routes are 403 for anyone else; project routes
 * resolve `:id` and the caller's role (404 unknown project or not a member, 403 role too low).
 */
@Injectable()
export class ProjectAccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly access: AccessControl,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AccessRequest>();
    const principal = request.principal;
    if (!principal) throw new Error('ProjectAccessGuard runs after AuthenticationGuard');
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(ADMIN_ONLY, targets)) this.access.requireAdmin(principal);
    const required = this.reflector.getAllAndOverride<AccessLevel | undefined>(REQUIRED_PROJECT_ACCESS, targets);
    if (required) request.projectAccess = await this.access.projectAccess(principal, request.params['id'], required);
    return true;
  }
}
