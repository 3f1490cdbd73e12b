import { OpenApiDocument, openApiProblems } from './openapi-document';

const error = { content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBodyDto' } } } };
const ok = { content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingDto' } } } };
const token = [{ bearer_token: [] }, { private_token: [] }];

function documentWith(operation: Record<string, unknown>, path = '/api/v4/things/{id}', method = 'get'): OpenApiDocument {
  return { openapi: '3.0.0', paths: { [path]: { [method]: operation } } };
}

const good = { parameters: [{ name: 'id', in: 'path' }], responses: { 200: ok, 401: error, 404: error }, security: token };

describe('openApiProblems', () => {
  it('finds nothing wrong with a complete description', () => {
    expect(openApiProblems(documentWith(good), ['GET /api/v4/things/{id}'], [])).toEqual([]);
  });

  it('names a served route the document lacks, and a documented one nobody serves', () => {
    expect(openApiProblems(documentWith(good), ['GET /api/v4/things/{id}', 'POST /api/v4/things/{id}/deliveries'], [])).toEqual([
      'POST /api/v4/things/{id}/deliveries: served but missing from the document',
    ]);
    expect(openApiProblems(documentWith(good), [], [])).toEqual(['GET /api/v4/things/{id}: in the document but not served']);
  });

  it('names what an operation leaves out', () => {
    const problems = openApiProblems(
      documentWith({ requestBody: {}, responses: { 200: {}, 404: { description: 'no body' } }, security: [{ bearer_token: [] }] }),
      ['GET /api/v4/things/{id}'],
      [],
    );
    expect(problems).toEqual([
      'GET /api/v4/things/{id}: path parameter id is not declared',
      'GET /api/v4/things/{id}: 200 has no body schema',
      'GET /api/v4/things/{id}: 404 does not answer {error, message}',
      'GET /api/v4/things/{id}: takes a body but documents no 400',
      'GET /api/v4/things/{id}: security is not "Authorization: Bearer or PRIVATE-TOKEN"',
      'GET /api/v4/things/{id}: takes a token but documents no 401',
    ]);
  });

  it('accepts an operation open to anyone only when it is expected to be', () => {
    const open = documentWith({ responses: { 200: ok } }, '/api/v4/catalogue');
    expect(openApiProblems(open, ['GET /api/v4/catalogue'], ['GET /api/v4/catalogue'])).toEqual([]);
    expect(openApiProblems(open, ['GET /api/v4/catalogue'], [])).toEqual(['GET /api/v4/catalogue: open to anyone (no security) but not expected to be']);
  });

  it('leaves paths outside /api/ alone', () => {
    expect(openApiProblems(documentWith({ responses: {} }, '/healthz'), [], [])).toEqual([]);
  });
});
