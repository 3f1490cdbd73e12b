import { join } from 'node:path';

// The check `npm run lint` runs (a plain CommonJS script, so that it runs before anything is built).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { folderScopeProblems, workspaceLibraries } = require('../../build/check-project-folders.js') as {
  folderScopeProblems(libraries: ReadonlyArray<{ root: string; tags: string[] }>): string[];
  workspaceLibraries(repoRoot: string): Array<{ root: string; tags: string[] }>;
};

describe('folders by owner', () => {
  it('accepts a library whose scope tag is its owner folder', () => {
    expect(folderScopeProblems([
      { root: 'libs/processor/alerts-data', tags: ['type:data', 'scope:processor'] },
      { root: 'libs/integration-config/deprecations', tags: ['type:domain', 'scope:config'] },
      { root: 'libs/shared/kafka', tags: ['type:data', 'scope:shared'] },
    ])).toEqual([]);
  });

  it('refuses a scope that is not its folder, a second scope, and a library outside an owner folder', () => {
    const problems = folderScopeProblems([
      { root: 'libs/shared/alerts-data', tags: ['type:data', 'scope:processor'] },
      { root: 'libs/gateway/feature', tags: ['scope:gateway', 'scope:shared'] },
      { root: 'libs/alerts/domain', tags: ['scope:shared'] },
      { root: 'libs/shared/kafka/nest', tags: ['scope:shared'] },
    ]);
    expect(problems).toHaveLength(4);
    expect(problems[0]).toMatch(/^libs\/shared\/alerts-data: in libs\/shared\/ its tags must hold scope:shared/);
    expect(problems[2]).toMatch(/^libs\/alerts\/domain: a library sits at libs\/<owner>\/<name>/);
  });

  it('holds for every library of this workspace', () => {
    const libraries = workspaceLibraries(join(__dirname, '..', '..', '..'));
    expect(libraries.length).toBeGreaterThan(10);
    expect(folderScopeProblems(libraries)).toEqual([]);
  });
});
