import 'reflect-metadata';
import { integrationConfigOpenApiDocument } from '../../../apps/integration-config/src/integration-config.app';
import { join } from 'node:path';
import { consoleApiTypesFile, typesOf, writeTypes } from './console-api-types';

/**
 * Writes the console's API client types (apps/console/src/api/generated/openapi.d.ts) from
 * integration-config's OpenAPI document, built in process without a database or Kafka.
 */
async function main(): Promise<void> {
  const started = Date.now();
  const document = await integrationConfigOpenApiDocument();
  // Run from the build: dist/tools/console-api/src.
  writeTypes(consoleApiTypesFile(join(__dirname, '..', '..', '..', '..')), await typesOf(document));
  console.log(`console-api: ${Object.keys(document.paths).length} paths, ${Object.keys(document.components?.schemas ?? {}).length} schemas into apps/console/src/api/generated/openapi.d.ts in ${Date.now() - started} ms`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
