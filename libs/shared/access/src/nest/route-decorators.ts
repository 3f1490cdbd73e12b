import { AccessLevel } from '@alert-ingestion/contracts';
import { ApiErrorResponses, BEARER_TOKEN_SCHEME, PRIVATE_TOKEN_SCHEME } from '@alert-ingestion/http';
import { applyDecorators, createParamDecorator, ExecutionContext, Param, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiParam, ApiSecurity } from '@nestjs/swagger';
import { parsePathId } from '../access-rules';
import { Principal, ProjectAccess } from '../principal';
import { AccessRequest } from './access-request';
import { AuthenticationGuard, ProjectAccessGuard, RequiresAdmin, RequiresProjectAccess } from './access.guards';

// Each route decorator also writes what it means into the OpenAPI document: the token headers it
// takes and the 401/403/404 answers its guards give (a route's own ApiErrorResponses for the same
// status add to the description). A route that uses none is open to anyone.

/** Either token header (CONTRACT.md "Management API"): two security requirements, one of which must hold. */
const ApiToken = () => applyDecorators(ApiBearerAuth(BEARER_TOKEN_SCHEME), ApiSecurity(PRIVATE_TOKEN_SCHEME));

const ApiProjectId = () => ApiParam({ name: 'id', description: 'The project id.', schema: { type: 'integer', minimum: 1 } });

/** A route for any valid token (administrator or user). */
export const AuthenticatedRoute = () => applyDecorators(UseGuards(AuthenticationGuard), ForwardedAuthenticatedRoute());

/** Documents a route for any valid token that is forwarded to the service that answers it (and checks the token): the token headers and 401, no guard. */
export const ForwardedAuthenticatedRoute = () => applyDecorators(ApiToken(), ApiErrorResponses(401));

/** A route only the administrator (ADMIN_TOKEN) may use: 401 without a valid token, 403 for users. */
export const AdminRoute = () =>
  applyDecorators(
    RequiresAdmin(),
    UseGuards(AuthenticationGuard, ProjectAccessGuard),
    ApiToken(),
    ApiErrorResponses(401, [403, 'Only the administrator (ADMIN_TOKEN) may do this.']),
  );

/** An administrator-only route under `/projects/:id`: 403 for users, then 404 for an unknown project. */
export const AdminProjectRoute = () =>
  applyDecorators(
    RequiresAdmin(),
    RequiresProjectAccess('owner'),
    UseGuards(AuthenticationGuard, ProjectAccessGuard),
    ApiToken(),
    ApiProjectId(),
    ApiErrorResponses(401, [403, 'Only the administrator (ADMIN_TOKEN) may do this.'], [404, 'No such project.']),
  );

/** A route under `/projects/:id` for members with at least `level` (and the administrator). */
export const ProjectRoute = (level: AccessLevel) =>
  applyDecorators(RequiresProjectAccess(level), UseGuards(AuthenticationGuard, ProjectAccessGuard), ForwardedProjectRoute(level));

/**
 * Documents a route under `/projects/:id` that is forwarded to the service that answers it, which
 * checks the token and the role (`level`) itself: the same security and 401/403/404 as ProjectRoute,
 * and no guard here.
 */
export const ForwardedProjectRoute = (level: AccessLevel) =>
  applyDecorators(
    ApiToken(),
    ApiProjectId(),
    ApiErrorResponses(401, [403, `The caller's role in the project is below ${level}.`], [404, 'No such project, or the caller is not a member.']),
  );

/** The authenticated caller. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AccessRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without AuthenticationGuard');
  return principal;
});

/** The project of a ProjectRoute, with the caller's role. */
export const CurrentProject = createParamDecorator((_data: unknown, context: ExecutionContext): ProjectAccess => {
  const access = context.switchToHttp().getRequest<AccessRequest>().projectAccess;
  if (!access) throw new Error('CurrentProject used on a route without ProjectAccessGuard');
  return access;
});

/**
 * The path parameter `name` as an id (parsePathId); anything that is not one names nothing, so the
 * error `notFound` builds from the text (a 404) is thrown.
 */
export const PathId = (name: string, notFound: (text: string) => Error) =>
  Param(name, {
    transform(text: string): bigint {
      const id = parsePathId(text);
      if (id === undefined) throw notFound(text);
      return id;
    },
  });
