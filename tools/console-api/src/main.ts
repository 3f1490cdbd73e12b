import 'reflect-metadata';
import { integrationConfigOpenApiDocument } from '../../../apps/integration-config/src/integration-config.app';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HTTP_TYPES_PATH, httpTypesFile, staleness, typesOf, writeTypes } from './console-api-types';

/**
 * `npm run console-api`: writes the HTTP API's types (libs/shared/contracts/src/http/openapi.d.ts) from
 * integration-config's OpenAPI document, built in process without a database or Kafka. The contract
 * types of the HTTP bodies and the console's client are these types.
 * `node dist/tools/console-api/src/main.js --check` (part of `npm test`): fails when the committed
 * file is not what the document generates.
 */
async function main(): Promise<number> {
  const started = Date.now();
  const document = await integrationConfigOpenApiDocument();
  // Run from the build: dist/tools/console-api/src.
  const file = httpTypesFile(join(__dirname, '..', '..', '..', '..'));
  const types = await typesOf(document);
  if (process.argv.includes('--check')) {
    const stale = staleness(existsSync(file) ? readFileSync(file, 'utf8') : null, types);
    if (stale === null) return 0;
    console.error(`console-api: out of date with the DTOs' decorators, run \`npm run console-api\` and commit ${HTTP_TYPES_PATH}.\n${stale}`);
    return 1;
  }
  writeTypes(file, types);
  console.log(`console-api: ${Object.keys(document.paths).length} paths, ${Object.keys(document.components?.schemas ?? {}).length} schemas into ${HTTP_TYPES_PATH} in ${Date.now() - started} ms`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
