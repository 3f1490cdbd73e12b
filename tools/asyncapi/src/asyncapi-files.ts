import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { asyncApiDocument, documentedTopics, schemaFileName } from './asyncapi-document';
import { eventsPage } from './events-page';
import { JsonSchema } from './json-schema';
import { messageSchemas } from './message-schemas';
import { describeIncompatibility, incompatibilities } from './schema-compatibility';

/** Where the files live, relative to the repository. */
export const ASYNCAPI_DIRECTORY = join('docs', 'asyncapi');
export const ASYNCAPI_DOCUMENT = join(ASYNCAPI_DIRECTORY, 'asyncapi.json');
export const SCHEMAS_DIRECTORY = join(ASYNCAPI_DIRECTORY, 'schemas');
export const EVENTS_PAGE = join('docs', 'events.md');

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Every file the tool writes, by its path in the repository, as the code at `root` generates them. */
export function generatedFiles(root: string): Map<string, string> {
  const topics = documentedTopics();
  const schemas = messageSchemas(root, [...new Set(topics.map((topic) => topic.schemaName))]);
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const document = asyncApiDocument(topics, schemas, { version });
  return new Map<string, string>([
    [ASYNCAPI_DOCUMENT, json(document)],
    ...[...schemas].map(([name, schema]): [string, string] => [join(SCHEMAS_DIRECTORY, schemaFileName(name)), json(schema)]),
    [EVENTS_PAGE, eventsPage(topics, schemas, document)],
  ]);
}

/** The files of the tool committed at `root`: the document, every schema file, the page. */
export function committedFiles(root: string): Map<string, string> {
  const read = (path: string): [string, string][] => (existsSync(join(root, path)) ? [[path, readFileSync(join(root, path), 'utf8')]] : []);
  const schemaFiles = existsSync(join(root, SCHEMAS_DIRECTORY)) ? readdirSync(join(root, SCHEMAS_DIRECTORY)).filter((name) => name.endsWith('.json')) : [];
  return new Map([...read(ASYNCAPI_DOCUMENT), ...schemaFiles.flatMap((name) => read(join(SCHEMAS_DIRECTORY, name))), ...read(EVENTS_PAGE)]);
}

/**
 * Every way the generated schemas break the committed ones, one line each naming the schema file,
 * the field and the rule. A schema file no longer generated (its topic is gone) is not a break.
 */
export function breakingChanges(committed: ReadonlyMap<string, string>, generated: ReadonlyMap<string, string>): string[] {
  return [...committed]
    .filter(([path]) => path.startsWith(SCHEMAS_DIRECTORY) && generated.has(path))
    .flatMap(([path, text]) =>
      incompatibilities(JSON.parse(text) as JsonSchema, JSON.parse(generated.get(path)!) as JsonSchema).map((found) => `${path}: ${describeIncompatibility(found)}`),
    );
}

/** The files whose committed text is not the generated one: changed, missing or no longer generated. */
export function staleFiles(committed: ReadonlyMap<string, string>, generated: ReadonlyMap<string, string>): string[] {
  const changed = [...generated].filter(([path, text]) => committed.get(path) !== text).map(([path]) => path);
  const gone = [...committed.keys()].filter((path) => !generated.has(path));
  return [...changed, ...gone].sort();
}
