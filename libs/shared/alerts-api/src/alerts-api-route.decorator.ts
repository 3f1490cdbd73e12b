import { AuthenticatedRoute, ForwardedAuthenticatedRoute, ForwardedProjectRoute, ProjectRoute } from '@alert-ingestion/access';
import { AccessLevel } from '@alert-ingestion/contracts';
import { ApiErrorResponses, ApiPageResponse } from '@alert-ingestion/http';
import { applyDecorators, Header, HttpCode, RequestMapping, RequestMethod } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse } from '@nestjs/swagger';
import { AlertsApiRouteDefinition } from './alerts-api.routes';

/** The status of a route's 2xx answer. */
export function successStatus(route: AlertsApiRouteDefinition): 200 | 201 | 204 {
  return route.response.status ?? 200;
}

/** What the OpenAPI documents say of a route's 2xx answer. */
function successDocumentation(route: AlertsApiRouteDefinition): MethodDecorator[] {
  const { type, page, array, contentType, description = '' } = route.response;
  const status = successStatus(route);
  if (contentType) return [ApiResponse({ status, description, content: { [contentType]: { schema: { type: 'string' } } } })];
  if (page && type) return [ApiPageResponse(type, description)];
  return [ApiResponse({ status, description, ...(type && { type, isArray: array === true }) })];
}

/** The route itself (method, path, status) and what the OpenAPI documents say of it, access aside. */
function routeAndDocumentation(route: AlertsApiRouteDefinition): Array<MethodDecorator> {
  return [
    RequestMapping({ path: route.path, method: RequestMethod[route.method] }),
    HttpCode(successStatus(route)),
    ...(route.response.contentType ? [Header('Content-Type', `${route.response.contentType}; charset=utf-8`)] : []),
    ApiOperation({ summary: route.summary }),
    ...Object.entries(route.params ?? {}).map(([name, text]) => ApiParam({ name, description: text, schema: { type: 'integer', minimum: 1 } })),
    ...successDocumentation(route),
    ...(route.errors ? [ApiErrorResponses(...route.errors)] : []),
  ];
}

/** A route without a token (access null) is open: its secret is its own to check. Its project is still a path parameter. */
const ApiProjectId = () => ApiParam({ name: 'id', description: 'The project id.', schema: { type: 'integer', minimum: 1 } });

/**
 * The query and body a handler takes are documented from its `@Query()` and `@Body()` parameter
 * types (Swagger reads them); they must be the table's, so that the processor validates what both
 * documents describe. Checked once, when the controller class is defined.
 */
function TakesTheTablesInput(route: AlertsApiRouteDefinition): MethodDecorator {
  return (target, key) => {
    const parameterTypes: unknown[] = Reflect.getMetadata('design:paramtypes', target, key) ?? [];
    for (const [part, type] of [
      ['query', route.query],
      ['body', route.body],
    ] as const) {
      if (type && !parameterTypes.includes(type)) {
        throw new Error(`${String(key)} (${route.method} ${route.path}) must take its ${part} as ${type.name}, as the alerts API table says`);
      }
    }
  };
}

/**
 * A handler of the alerts API on alert-processor, from its entry in ALERTS_API: the route, the
 * access check (ProjectRoute: the token, then the caller's role in the project) and its OpenAPI
 * description. The handler is written by hand below it.
 *   @AlertsApiRoute(ALERTS_API.getAlert)
 *   find(@CurrentProject() project: ProjectAccess, @Param('iid') iid: string): Promise<AlertDto> { ... }
 */
export const AlertsApiRoute = (route: AlertsApiRouteDefinition) =>
  applyDecorators(...routeAndDocumentation(route), accessOf(route, ProjectRoute, AuthenticatedRoute), TakesTheTablesInput(route));

/** A route's access check (or, forwarded, its description): the caller's own (any user's token), open (a secret of its own), or a project role. */
function accessOf(route: AlertsApiRouteDefinition, project: (level: AccessLevel) => MethodDecorator, own: () => MethodDecorator): MethodDecorator {
  if (route.scope === 'user') return own();
  return route.access === null ? ApiProjectId() : project(route.access);
}

/**
 * The same route as a service that forwards it to alert-processor documents it: the same token
 * headers and 401/403/404 (the processor checks them), and the answers of an unreachable or slow processor.
 */
export const ForwardedAlertsApiRoute = (route: AlertsApiRouteDefinition) =>
  applyDecorators(
    ...routeAndDocumentation(route),
    accessOf(route, ForwardedProjectRoute, ForwardedAuthenticatedRoute),
    ApiErrorResponses([502, 'alert-processor gave no usable answer in time.'], [503, 'alert-processor cannot be reached.']),
  );
