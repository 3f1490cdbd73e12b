import { ForbiddenError, NotFoundError } from '@alert-ingestion/http';
import { AccessLevel, hasAccessLevel } from '@alert-ingestion/integrations-domain';
import { CanActivate, ExecutionContext, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ProjectsService } from '../projects/projects.service';
import { ManagementRequest } from './principal';

export const REQUIRED_PROJECT_ACCESS = 'integrations:required-project-access';
export const ADMIN_ONLY = 'integrations:admin-only';

/** Marks a route under `/projects/:id` with the lowest role that may use it. */
export const RequiresProjectAccess = (level: AccessLevel) => SetMetadata(REQUIRED_PROJECT_ACCESS, level);
/** Marks a route that only the administrator may use. */
export const RequiresAdmin = () => SetMetadata(ADMIN_ONLY, true);

/** A path id: a positive decimal integer; anything else names no record. */
export function parseId(value: unknown): bigint | undefined {
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,17}$/.test(value)) return undefined;
  return BigInt(value);
}

/**
 * Runs after AuthenticationGuard. Administrator-only routes: 403 for anyone else. Project routes
 * (CONTRACT.md): 404 for an unknown project or a caller who is not a member (a project's existence
 * is not revealed), 403 when the member's role is too low.
 */
@Injectable()
export class ProjectAccessGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly projects: ProjectsService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<ManagementRequest>();
    const principal = request.principal;
    if (!principal) throw new Error('ProjectAccessGuard runs after AuthenticationGuard');
    const targets = [context.getHandler(), context.getClass()];

    if (this.reflector.getAllAndOverride<boolean>(ADMIN_ONLY, targets) && principal.kind !== 'admin') {
      throw new ForbiddenError('Only the administrator may do this.');
    }

    const required = this.reflector.getAllAndOverride<AccessLevel | undefined>(REQUIRED_PROJECT_ACCESS, targets);
    if (!required) return true;
    const projectId = parseId(request.params['id']);
    const access = projectId === undefined ? null : await this.projects.accessOf(principal, projectId);
    if (!access) throw new NotFoundError('Project not found.', 'project_not_found');
    if (!hasAccessLevel(access.accessLevel, required)) {
      throw new ForbiddenError(`This needs at least the ${required} role in the project; you are ${access.accessLevel}.`, 'insufficient_role');
    }
    request.projectAccess = access;
    return true;
  }
}
