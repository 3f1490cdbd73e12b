/**
 * The HTTP API's shapes, generated from integration-config's OpenAPI document (./openapi.d.ts, written
 * by `npm run console-api`): the one statement of every request and response body. The DTO classes'
 * decorators are its source; the contract types of the HTTP bodies (Integration, IncidentAlertView,
 * DeprecationEntry, ...) are its schemas under their own names (the views Kafka events carry are
 * written out and held to theirs: ../event-views.check.ts), and the console's client is typed by its
 * `paths`.
 */
import type { components } from './openapi';

export type { components, operations, paths } from './openapi';

/** The schemas of the API's bodies, by name (`HttpSchemas['AlertDto']`). */
export type HttpSchemas = components['schemas'];
