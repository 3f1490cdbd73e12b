import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The repository root: the nearest folder above `from` that holds nx.json. Works from the
 * TypeScript sources (jest) and from the compiled copy in dist/ alike.
 */
export function findRepoRoot(from: string = __dirname): string {
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, 'nx.json')) && existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No repository root (a folder with nx.json) above ${from}`);
    dir = parent;
  }
}
