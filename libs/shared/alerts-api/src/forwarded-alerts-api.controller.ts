import { Body, Controller, Query, Type } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ForwardedAlertsApiRoute } from './alerts-api-route.decorator';
import { ALERTS_API, ALERTS_API_BASE, USER_API_BASE } from './alerts-api.routes';

/**
 * The alerts API as a service that forwards it describes it in its OpenAPI document: controller
 * classes, for Swagger to read (one for the project routes, one for the caller's own under
 * /api/v4/user), with one method per route of ALERTS_API, each described as the processor's handler
 * is (ForwardedAlertsApiRoute, taking the table's query and body). They are never routed (the
 * forwarding proxy answers these paths), so they have no handler to write: they are made from the
 * table, and a new route of the table appears here by itself.
 */
export function forwardedAlertsApiControllers(name: string, tag: string): Array<Type<unknown>> {
  return [forwardedController(name, tag, 'project'), forwardedController(`${name}User`, tag, 'user')];
}

function forwardedController(name: string, tag: string, scope: 'project' | 'user'): Type<unknown> {
  const controller = { [name]: class {} }[name];
  const prototype = controller.prototype as Record<string, unknown>;
  for (const [key, route] of Object.entries(ALERTS_API)) {
    if (('scope' in route ? route.scope : 'project') !== scope) continue;
    // Named after the route, as a handler would be: Swagger reads a method's metadata by its name.
    prototype[key] = { [key]() {} }[key];
    const inputs = [
      ...('query' in route ? [{ type: route.query, decorator: Query() }] : []),
      ...('body' in route ? [{ type: route.body, decorator: Body() }] : []),
    ];
    Reflect.defineMetadata('design:paramtypes', inputs.map(({ type }) => type), prototype, key);
    inputs.forEach(({ decorator }, index) => decorator(prototype, key, index));
    ForwardedAlertsApiRoute(route)(prototype, key, Object.getOwnPropertyDescriptor(prototype, key)!);
  }
  ApiTags(tag)(controller);
  Controller(scope === 'user' ? USER_API_BASE : ALERTS_API_BASE)(controller);
  return controller;
}
