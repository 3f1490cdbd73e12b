import { AccessLevel } from '@alert-ingestion/integrations-domain';
import { applyDecorators, createParamDecorator, ExecutionContext, UseGuards } from '@nestjs/common';
import { AuthenticationGuard } from './authentication.guard';
import { ManagementRequest, Principal, ProjectAccess } from './principal';
import { ProjectAccessGuard, RequiresAdmin, RequiresProjectAccess } from './project-access.guard';

/** A route only the administrator (ADMIN_TOKEN) may use: 401 without a valid token, 403 for users. */
export const AdminRoute = () => applyDecorators(RequiresAdmin(), UseGuards(AuthenticationGuard, ProjectAccessGuard));

/** An administrator-only route under `/projects/:id`: 403 for users, then 404 for an unknown project. */
export const AdminProjectRoute = () =>
  applyDecorators(RequiresAdmin(), RequiresProjectAccess('owner'), UseGuards(AuthenticationGuard, ProjectAccessGuard));

/** A route under `/projects/:id` for members with at least `level` (and the administrator). */
export const ProjectRoute = (level: AccessLevel) => applyDecorators(RequiresProjectAccess(level), UseGuards(AuthenticationGuard, ProjectAccessGuard));

/** The authenticated caller. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<ManagementRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without AuthenticationGuard');
  return principal;
});

/** The project of a ProjectRoute, with the caller's role. */
export const CurrentProject = createParamDecorator((_data: unknown, context: ExecutionContext): ProjectAccess => {
  const access = context.switchToHttp().getRequest<ManagementRequest>().projectAccess;
  if (!access) throw new Error('CurrentProject used on a route without ProjectAccessGuard');
  return access;
});
