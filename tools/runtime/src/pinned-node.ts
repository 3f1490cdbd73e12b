import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Node.js release the project runs on, in one place: package.json's `node` devDependency, the
 * registry's package that brings the real binary. npm scripts put node_modules/.bin first on PATH,
 * so `npm start`, `npm test` and every tool they start run on it, whatever Node runs npm itself.
 */
export function pinnedNodeVersion(repoRoot: string): string {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  const version = manifest.devDependencies?.['node'];
  if (!version || !/^\d+\.\d+\.\d+$/.test(version)) throw new Error(`package.json: devDependencies.node must be an exact version (x.y.z), found ${String(version)}`);
  return version;
}

/** The release line of a version: 26 for 26.10.0. */
export function majorOf(version: string): number {
  return Number(version.replace(/^v/, '').split('.')[0]);
}
