import type { OpenAPIObject } from '@nestjs/swagger';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { integrationConfigOpenApiDocument } from '../../../apps/integration-config/src/integration-config.app';
import { HTTP_TYPES_PATH, httpTypesFile, staleness, typesOf } from './console-api-types';

// The freshness check of the committed HTTP types (`npm run console-api:check`, part of `npm test`):
// the document is built in process, as tools/console-api builds it.
const committed = readFileSync(httpTypesFile(resolve(__dirname, '..', '..', '..')), 'utf8');

type Schemas = Record<string, { required?: string[]; properties?: Record<string, unknown> }>;

/** The document with `change` made to a copy of its schemas. */
function changed(document: OpenAPIObject, change: (schemas: Schemas) => void): OpenAPIObject {
  const copy = structuredClone(document);
  change(copy.components!.schemas as Schemas);
  return copy;
}

describe('the committed HTTP types against the OpenAPI document', () => {
  let document: OpenAPIObject;

  beforeAll(async () => {
    document = await integrationConfigOpenApiDocument();
  });

  it(`pass: ${HTTP_TYPES_PATH} is what integration-config's document generates`, async () => {
    expect(staleness(committed, await typesOf(document))).toBeNull();
  });

  it('fail when a property is removed from the document, naming the schema and the property', async () => {
    const without = changed(document, (schemas) => {
      delete schemas.AlertDto.properties!.title;
      schemas.AlertDto.required = schemas.AlertDto.required!.filter((name) => name !== 'title');
    });
    const message = staleness(committed, await typesOf(without));
    expect(message).toContain(`${HTTP_TYPES_PATH} differs from what the document generates at line`);
    expect(message).toContain('(in components.schemas.AlertDto)');
    expect(message).toMatch(/^- \d+: +title: string;$/m);
  });

  it('fail when the file is missing', async () => {
    expect(staleness(null, await typesOf(document))).toBe(`${HTTP_TYPES_PATH} is missing`);
  });
});
