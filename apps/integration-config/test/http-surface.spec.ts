import { asyncApiDocument } from '@alert-ingestion/http';
import { documentedApiOperations, OpenApiDocument, openApiProblems, registeredApiOperations, visitDocsPage } from '@alert-ingestion/testing';
import { integrationConfigOpenApiDocument } from '../src/integration-config.app';
import { ADMIN_TOKEN, ManagementApi } from './support/management-api';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** CONTRACT.md "Management API": the routes the contract lists, which the document must describe. */
const CONTRACT_OPERATIONS = [
  'POST /api/v4/users',
  'POST /api/v4/projects',
  'PUT /api/v4/projects/{id}',
  'GET /api/v4/user',
  'PUT /api/v4/user',
  'PUT /api/v4/users/{user_id}',
  'GET /api/v4/projects',
  'GET /api/v4/projects/{id}',
  'POST /api/v4/projects/{id}/members',
  'GET /api/v4/projects/{id}/members',
  'PUT /api/v4/projects/{id}/members/{user_id}',
  'DELETE /api/v4/projects/{id}/members/{user_id}',
  'GET /api/v4/projects/{id}/alert_integrations',
  'POST /api/v4/projects/{id}/alert_integrations',
  'GET /api/v4/projects/{id}/alert_integrations/{iid}',
  'PUT /api/v4/projects/{id}/alert_integrations/{iid}',
  'DELETE /api/v4/projects/{id}/alert_integrations/{iid}',
  'POST /api/v4/projects/{id}/alert_integrations/{iid}/reset_authorization_key',
  'POST /api/v4/projects/{id}/alert_integrations/parse_sample_payload',
  'POST /api/v4/projects/{id}/alert_integrations/{iid}/test_alert',
  'POST /api/v4/projects/{id}/alert_integrations/{iid}/preview',
  'GET /api/v4/projects/{id}/alert_integrations/{iid}/deliveries',
  'POST /api/v4/projects/{id}/silences',
  'GET /api/v4/projects/{id}/silences',
  'GET /api/v4/projects/{id}/silences/{silence_id}',
  'PUT /api/v4/projects/{id}/silences/{silence_id}',
  'POST /api/v4/projects/{id}/silences/{silence_id}/expire',
  'GET /api/v4/projects/{id}/alert_notifications',
  'GET /api/v4/deprecations',
  'GET /api/v4/deprecations/upgrade_report',
  'POST /api/v4/deprecations/check',
  'GET /api/v4/alert_integrations/feature_history',
] as const;

/**
 * The catalogue of deprecations is open to anyone, and an on-call calendar feed takes the secret of
 * its URL instead of a token (calendars that subscribe send none); everything else takes a token.
 */
const OPEN_OPERATIONS = [
  'GET /api/v4/deprecations',
  'GET /api/v4/deprecations/upgrade_report',
  'POST /api/v4/deprecations/check',
  'GET /api/v4/alert_integrations/feature_history',
  'GET /api/v4/projects/{id}/oncall_schedules/{schedule_id}/calendar.ics',
] as const;

describe('integration-config: OpenAPI document, docs page and X-Request-Id (CONTRACT.md "Across all services")', () => {
  let api: ManagementApi;
  let document: OpenApiDocument;

  beforeAll(async () => {
    api = await ManagementApi.start();
    const answer = await fetch(`${api.url}/api/v4/openapi.json`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    document = (await answer.json()) as OpenApiDocument;
  });

  afterAll(async () => {
    await api?.stop();
  });

  describe('GET /api/v4/openapi.json', () => {
    it('is an OpenAPI 3 document of every route the app serves, each with its parameters, answers and errors', () => {
      expect(document.openapi).toMatch(/^3\./);
      const registered = registeredApiOperations(api.app);
      expect(registered.length).toBeGreaterThanOrEqual(CONTRACT_OPERATIONS.length);
      expect(openApiProblems(document, registered, [...OPEN_OPERATIONS])).toEqual([]);
    });

    it('describes every route of the contract', () => {
      expect(CONTRACT_OPERATIONS.filter((operation) => !documentedApiOperations(document).includes(operation))).toEqual([]);
    });

    it('is the document tools/console-api builds without a database or Kafka, which the console is typed from', async () => {
      expect(JSON.parse(JSON.stringify(await integrationConfigOpenApiDocument()))).toEqual(document);
    });

    it('names both token headers as security schemes', () => {
      expect(document.components?.securitySchemes).toEqual({
        bearer_token: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
        private_token: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'PRIVATE-TOKEN' }),
      });
    });

    it('describes the JSON shapes the contract lists', () => {
      const schemas = document.components?.schemas as Record<string, { properties: Record<string, unknown> }>;
      const properties = (name: string) => Object.keys(schemas[name].properties).sort();
      expect(properties('ErrorBodyDto')).toEqual(['error', 'errors', 'field', 'message']);
      expect(properties('IntegrationDto')).toEqual(
        ['active', 'allow_signature_without_timestamp', 'api_url', 'authorization_key', 'heartbeat_interval_minutes', 'heartbeat_status', 'id', 'last_request_at', 'link_deprecation', 'name', 'payload_field_mapping', 'previous_authorization_key', 'previous_authorization_keys', 'rate_limit_per_minute', 'sample_payload', 'signing_secret', 'type', 'url'].sort(),
      );
      expect(properties('ProjectWithAccessDto')).toEqual(['access_level', 'id', 'path', 'tier']);
      expect(properties('CreatedUserDto')).toEqual(['email', 'id', 'token', 'token_expires_at', 'username']);
      const listProjects = document.paths['/api/v4/projects'].get;
      expect((listProjects.parameters ?? []).map((parameter) => `${parameter.in}:${parameter.name}`).sort()).toEqual(['query:page', 'query:per_page', 'query:search']);
    });
  });

  describe('GET /api/v4/docs', () => {
    it('shows every operation in Swagger UI, with nothing loaded from another origin', async () => {
      const visit = await visitDocsPage(`${api.url}/api/v4/docs`);
      expect(visit.title).toContain('integration-config');
      expect(visit.operations).toBe(Object.values(document.paths).reduce((count, item) => count + Object.keys(item).length, 0));
      expect(visit.requests.filter((url) => !url.startsWith(`${api.url}/`))).toEqual([]);
      expect(visit.statuses).toMatchObject({
        '/api/v4/docs': 200,
        '/api/v4/docs/swagger-ui.css': 200,
        '/api/v4/docs/swagger-ui-bundle.js': 200,
        '/api/v4/docs/swagger-ui-standalone-preset.js': 200,
        '/api/v4/docs/swagger-ui-init.js': 200,
      });
    });
  });

  describe('GET /api/v4/asyncapi.json', () => {
    it("serves the AsyncAPI document of every topic (docs/asyncapi), its channels named as this deployment's topics", async () => {
      const answer = await fetch(`${api.url}/api/v4/asyncapi.json`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
      const served = (await answer.json()) as { channels: Record<string, { address: string }> };
      expect(served).toEqual(asyncApiDocument(api.topics.prefix));
      expect(served.channels['IncidentEvents'].address).toBe(`${api.topics.prefix}incidents.events.v1`);
    });
  });

  describe('X-Request-Id', () => {
    const paths: Array<[string, string, RequestInit]> = [
      ['a success', '/api/v4/user', { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } }],
      ['a refused token', '/api/v4/user', { headers: { Authorization: 'Bearer no-such-token' } }],
      ['a body that is not JSON', '/api/v4/projects', { method: 'POST', headers: { Authorization: `Bearer ${ADMIN_TOKEN}`, 'Content-Type': 'application/json' }, body: '{nope' }],
      ['an unknown path', '/no/such/path', {}],
      ['/healthz', '/healthz', {}],
      ['the OpenAPI document', '/api/v4/openapi.json', {}],
      ['the AsyncAPI document', '/api/v4/asyncapi.json', {}],
      ['a docs asset', '/api/v4/docs/swagger-ui.css', {}],
    ];

    /**
     * The X-Request-Id of the answer to a request, its body read: an answer left unread holds its
     * connection, and the app's close waits for it until the client lets the connection go.
     */
    const requestIdOf = async (path: string, init: RequestInit): Promise<string | null> => {
      const answer = await fetch(`${api.url}${path}`, init);
      await answer.arrayBuffer();
      return answer.headers.get('x-request-id');
    };

    it.each(paths)("answers %s with the caller's id", async (_, path, init) => {
      expect(await requestIdOf(path, { ...init, headers: { ...init.headers, 'X-Request-Id': 'from-the-caller-1' } })).toBe('from-the-caller-1');
    });

    it.each(paths)('answers %s with a new UUID v4 when the caller sent none or an unusable one', async (_, path, init) => {
      const none = await requestIdOf(path, init);
      const unusable = await requestIdOf(path, { ...init, headers: { ...init.headers, 'X-Request-Id': 'with space' } });
      expect(none).toMatch(UUID_V4);
      expect(unusable).toMatch(UUID_V4);
      expect(none).not.toBe(unusable);
    });
  });
});
