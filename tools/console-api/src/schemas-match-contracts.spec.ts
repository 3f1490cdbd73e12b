import type { OpenAPIObject } from '@nestjs/swagger';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { integrationConfigOpenApiDocument } from '../../../apps/integration-config/src/integration-config.app';
import { httpTypesFile, typesOf } from './console-api-types';

const root = resolve(__dirname, '..', '..', '..');
const CHECK_FILE = join(__dirname, 'schemas-match-contracts.ts');

const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined })!;
// The project's own declarations of untyped modules, which the code the check imports relies on.
const declarations = config.fileNames.filter((file) => file.endsWith('.d.ts'));

/** The type errors of schemas-match-contracts.ts when the console's types are `types` (in place of the generated file). */
function errorsWith(types: string): string[] {
  const host = ts.createCompilerHost(config.options);
  const generated = httpTypesFile(root);
  const { fileExists, readFile } = host;
  host.fileExists = (file) => resolve(file) === generated || fileExists.call(host, file);
  host.readFile = (file) => (resolve(file) === generated ? types : readFile.call(host, file));
  const { getSourceFile } = host;
  host.getSourceFile = (file, language, onError) =>
    resolve(file) === generated ? ts.createSourceFile(file, types, language) : getSourceFile.call(host, file, language, onError);
  const program = ts.createProgram({ rootNames: [CHECK_FILE, ...declarations], options: config.options, host });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => `${diagnostic.file ? diagnostic.file.text.slice(diagnostic.start, (diagnostic.start ?? 0) + (diagnostic.length ?? 0)) : ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`);
}

/** The document with `change` made to a copy of it. */
function changed(document: OpenAPIObject, change: (schemas: Record<string, { required?: string[]; properties?: Record<string, unknown> }>) => void): OpenAPIObject {
  const copy = structuredClone(document);
  change(copy.components!.schemas as Record<string, { required?: string[]; properties?: Record<string, unknown> }>);
  return copy;
}

describe('the OpenAPI schemas against the contract types', () => {
  let document: OpenAPIObject;

  beforeAll(async () => {
    document = await integrationConfigOpenApiDocument();
  });

  it('match: every schema of integration-config\'s document is its contract type, or has none', async () => {
    expect(errorsWith(await typesOf(document))).toEqual([]);
  });

  it('a schema whose property is optional where the contract requires it fails, naming the schema', async () => {
    const loose = changed(document, (schemas) => {
      schemas.AlertDto.required = schemas.AlertDto.required!.filter((name) => name !== 'title');
    });
    const errors = errorsWith(await typesOf(loose));
    expect(errors).toEqual([expect.stringMatching(/^AlertDto: Type 'true' is not assignable to type 'false'/)]);
  });

  it('a schema with a property its contract type does not have fails, even an optional one', async () => {
    const extra = changed(document, (schemas) => {
      schemas.MemberDto.properties = { ...schemas.MemberDto.properties, nickname: { type: 'string' } };
    });
    expect(errorsWith(await typesOf(extra))).toEqual([expect.stringMatching(/^MemberDto: Type 'true' is not assignable to type 'false'/)]);
  });

  it('a new schema that is neither paired with a contract type nor listed without one fails', async () => {
    const added = changed(document, (schemas) => {
      schemas.SnoozeDto = { required: ['until'], properties: { until: { type: 'string' } } };
    });
    expect(errorsWith(await typesOf(added))).toEqual([expect.stringMatching(/^EVERY_SCHEMA_LISTED: .*unlisted: "SnoozeDto"/)]);
  });
});
