import { asyncApiDocument } from '@alert-ingestion/http';
import { documentedApiOperations, OpenApiDocument, openApiProblems, registeredApiOperations, visitDocsPage } from '@alert-ingestion/testing';
import { ProcessorHarness } from './processor-harness';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** CONTRACT.md "Alerts query API", and the deliveries of an integration, which the processor records and answers. */
const CONTRACT_OPERATIONS = [
  'GET /api/v4/projects/{id}/alert_integrations/{iid}/deliveries',
  'GET /api/v4/projects/{id}/alerts',
  'GET /api/v4/projects/{id}/alerts/{iid}',
  'PUT /api/v4/projects/{id}/alerts/{iid}',
  'GET /api/v4/projects/{id}/alerts/status_counts',
  'POST /api/v4/projects/{id}/silences',
  'GET /api/v4/projects/{id}/silences',
  'GET /api/v4/projects/{id}/silences/{silence_id}',
  'PUT /api/v4/projects/{id}/silences/{silence_id}',
  'POST /api/v4/projects/{id}/silences/{silence_id}/expire',
  'GET /api/v4/projects/{id}/alert_notifications',
] as const;

describe('alert-processor: OpenAPI document, docs page and X-Request-Id (CONTRACT.md "Across all services")', () => {
  const harness = new ProcessorHarness();
  let document: OpenApiDocument;

  beforeAll(async () => {
    await harness.start();
    const answer = await fetch(`${harness.baseUrl}/api/v4/openapi.json`);
    expect(answer.status).toBe(200);
    document = (await answer.json()) as OpenApiDocument;
  });

  afterAll(async () => {
    await harness.stop();
  });

  it('documents every route the app serves, each with its parameters, answers and errors; none is open but the calendar feed, at its secret URL', () => {
    expect(document.openapi).toMatch(/^3\./);
    expect(openApiProblems(document, registeredApiOperations(harness.app), ['GET /api/v4/projects/{id}/oncall_schedules/{schedule_id}/calendar.ics'])).toEqual([]);
    expect(CONTRACT_OPERATIONS.filter((operation) => !documentedApiOperations(document).includes(operation))).toEqual([]);
  });

  it('describes the alert and the delivery as the contract lists them, and the list query', () => {
    const schemas = document.components?.schemas as Record<string, { properties: Record<string, unknown> }>;
    expect(Object.keys(schemas['AlertDto'].properties).sort()).toEqual(
      [
        'iid',
        'title',
        'description',
        'severity',
        'status',
        'events',
        'started_at',
        'ended_at',
        'service',
        'monitoring_tool',
        'hosts',
        'platform_environment_name',
        'fingerprint',
        'integration_id',
        'payload',
        'silenced_by',
        'assignees',
        'incident_iid',
        'created_at',
        'updated_at',
      ].sort(),
    );
    expect(Object.keys(schemas['DeliveryDto'].properties).sort()).toEqual(['alerts', 'authorization_key', 'authorization_key_expires_at', 'body', 'body_size', 'body_truncated', 'error', 'id', 'received_at', 'request_id', 'status']);
    const list = document.paths['/api/v4/projects/{id}/alerts'].get;
    expect((list.parameters ?? []).map((parameter) => `${parameter.in}:${parameter.name}`).sort()).toEqual(['path:id', 'query:assignee_id', 'query:assignee_username', 'query:order', 'query:page', 'query:per_page', 'query:search', 'query:severity', 'query:silenced', 'query:sort', 'query:status']);
  });

  it("serves the AsyncAPI document of every topic (docs/asyncapi), its channels named as this deployment's topics", async () => {
    const answer = await fetch(`${harness.baseUrl}/api/v4/asyncapi.json`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    const served = (await answer.json()) as { asyncapi: string; channels: Record<string, { address: string }> };
    expect(served).toEqual(asyncApiDocument(harness.topics.prefix));
    expect(served.asyncapi).toBe('3.1.0');
    expect(served.channels['AlertEvents'].address).toBe(`${harness.topics.prefix}alerts.events.v1`);
  });

  it('serves Swagger UI from its own origin only', async () => {
    const visit = await visitDocsPage(`${harness.baseUrl}/api/v4/docs`);
    expect(visit.title).toContain('alert-processor');
    expect(visit.operations).toBe(Object.values(document.paths).reduce((count, item) => count + Object.keys(item).length, 0));
    expect(visit.requests.filter((url) => !url.startsWith(`${harness.baseUrl}/`))).toEqual([]);
    expect(visit.statuses).toMatchObject({ '/api/v4/docs/swagger-ui.css': 200, '/api/v4/docs/swagger-ui-bundle.js': 200, '/api/v4/docs/swagger-ui-init.js': 200 });
  });

  it.each([
    ['a refused token', '/api/v4/projects/1/alerts'],
    ['an unknown path', '/no/such/path'],
    ['/healthz', '/healthz'],
    ['the OpenAPI document', '/api/v4/openapi.json'],
    ['the AsyncAPI document', '/api/v4/asyncapi.json'],
  ])("answers %s with the caller's X-Request-Id, or a new UUID v4", async (_, path) => {
    const named = await fetch(`${harness.baseUrl}${path}`, { headers: { 'X-Request-Id': 'from-the-caller-2' } });
    expect(named.headers.get('x-request-id')).toBe('from-the-caller-2');
    const unnamed = await fetch(`${harness.baseUrl}${path}`, { headers: { 'X-Request-Id': 'x'.repeat(256) } });
    expect(unnamed.headers.get('x-request-id')).toMatch(UUID_V4);
  });
});
