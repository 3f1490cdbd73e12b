import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DeprecationCatalogue } from './deprecation-catalogue';
import { CatalogueError } from './deprecation.errors';
import { CatalogueFile, parseCatalogue } from './catalogue-parser';

/** Where the catalogue lives inside the repository. */
export const CATALOGUE_PATH = join('libs', 'integration-config', 'deprecations', 'catalogue');

/** Set this where the repository tree is not around the running code (e.g. a container image). */
export const CATALOGUE_DIRECTORY_VARIABLE = 'DEPRECATIONS_CATALOGUE_DIR';

export interface CatalogueLocation {
  readonly catalogueDirectory: string;
  /** The repository root (three levels above the catalogue), where docs/ lives. */
  readonly repositoryRoot: string;
}

/**
 * The YAML files are data, not code: swc does not copy them to dist/. So the catalogue is found by
 * walking up from the running file (libs/integration-config/deprecations/src in jest, dist/libs/integration-config/deprecations/src after
 * a build) to the first folder that holds libs/integration-config/deprecations/catalogue.
 */
export function locateCatalogue(startDirectory: string = __dirname, env: NodeJS.ProcessEnv = process.env): CatalogueLocation {
  const configured = env[CATALOGUE_DIRECTORY_VARIABLE];
  if (configured !== undefined && configured !== '') {
    const catalogueDirectory = resolve(configured);
    if (!isDirectory(catalogueDirectory)) {
      throw new CatalogueError(catalogueDirectory, CATALOGUE_DIRECTORY_VARIABLE, null, 'is not a directory');
    }
    return { catalogueDirectory, repositoryRoot: resolve(catalogueDirectory, '..', '..', '..') };
  }
  let directory = resolve(startDirectory);
  for (;;) {
    const candidate = join(directory, CATALOGUE_PATH);
    if (isDirectory(candidate)) return { catalogueDirectory: candidate, repositoryRoot: directory };
    const parent = dirname(directory);
    if (parent === directory) {
      throw new CatalogueError(
        CATALOGUE_PATH,
        'location',
        null,
        `not found in ${resolve(startDirectory)} or any folder above it; set ${CATALOGUE_DIRECTORY_VARIABLE}`,
      );
    }
    directory = parent;
  }
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}

/** Reads every *.yaml / *.yml file of the catalogue directory, in name order. */
export function readCatalogueFiles(catalogueDirectory: string): CatalogueFile[] {
  return readdirSync(catalogueDirectory)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort((a, b) => a.localeCompare(b, 'en', { numeric: true }))
    .map((name) => {
      const path = join(catalogueDirectory, name);
      return { name: path, text: readFileSync(path, 'utf8') };
    });
}

/** Loads and validates the catalogue; a malformed file throws a CatalogueError naming file, field and line. */
export function loadDeprecationCatalogue(catalogueDirectory: string = locateCatalogue().catalogueDirectory): DeprecationCatalogue {
  return parseCatalogue(readCatalogueFiles(catalogueDirectory));
}
