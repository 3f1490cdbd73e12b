import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { join, resolve } from 'node:path';

/**
 * Jest loads globalSetup/globalTeardown with Node's own require (moduleNameMapper does not apply
 * there), so the libraries' `@alert-ingestion/*` imports are resolved here from tsconfig.base.json,
 * the same table jest.config.js and the build use.
 */
const root = resolve(__dirname, '..', '..');
const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')) as {
  compilerOptions: { paths: Record<string, string[]> };
};
const aliases = new Map(Object.entries(compilerOptions.paths).map(([alias, [target]]) => [alias, join(root, target)]));

type ResolveFilename = (request: string, parent: unknown, isMain: boolean, options?: unknown) => string;
const moduleWithResolver = Module as unknown as { _resolveFilename: ResolveFilename };
const original = moduleWithResolver._resolveFilename;
if (!(original as { aliasAware?: boolean }).aliasAware) {
  const aliasAware: ResolveFilename = (request, parent, isMain, options) =>
    original.call(Module, aliases.get(request) ?? request, parent, isMain, options);
  Object.assign(aliasAware, { aliasAware: true });
  moduleWithResolver._resolveFilename = aliasAware;
}
