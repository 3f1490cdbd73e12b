import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { majorOf, pinnedNodeVersion } from './pinned-node';

const repoRoot = join(__dirname, '..', '..', '..');
const pinned = pinnedNodeVersion(repoRoot);
const major = majorOf(pinned);
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  engines: Record<string, string>;
  devEngines: { runtime: { version: string } };
  devDependencies: Record<string, string>;
};

function* filesUnder(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

/** Every `node:<tag>` image named in the deployment files, with where it is. */
function nodeImages(): { where: string; tag: string }[] {
  const files = [...filesUnder(join(repoRoot, 'deploy')), join(repoRoot, 'docker-compose.yml')];
  return files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/\bnode:([\w.-]+)/g)].map((match) => ({ where: relative(repoRoot, file), tag: match[1] })),
  );
}

/** The Node.js release is pinned once (package.json's `node`); everything else follows it. */
describe(`the pinned Node.js (${pinned})`, () => {
  it('runs this test: npm put its binary first on PATH (its install script ran; package.json allows it)', () => {
    expect(process.version).toBe(`v${pinned}`);
  });

  it('is an LTS line (even major)', () => {
    expect(major % 2).toBe(0);
  });

  it("is what package.json's engines asks for", () => {
    expect(manifest.engines['node']).toBe(`^${pinned}`);
  });

  it("is the line of the Docker images' base and of every node image the deployment files name", () => {
    const images = nodeImages();
    expect(images.filter(({ where }) => where === join('deploy', 'Dockerfile')).length).toBeGreaterThan(0);
    expect(images.filter(({ tag }) => tag !== `${major}-bookworm-slim`)).toEqual([]);
  });

  it('is the line of the Node.js type definitions', () => {
    expect(manifest.devDependencies['@types/node']).toMatch(new RegExp(`^\\^${major}\\.`));
  });

  it('is the one docs/development.md\'s "The Node.js runtime" section names', () => {
    const guide = readFileSync(join(repoRoot, 'docs', 'development.md'), 'utf8');
    const start = guide.indexOf('## The Node.js runtime');
    expect(start).toBeGreaterThanOrEqual(0);
    const section = guide.slice(start, guide.indexOf('\n## ', start + 1));
    expect(section).toContain(`Node.js ${pinned}`);
  });
});

/**
 * npm checks `engines` against the Node that runs npm, the machine's (as old as devEngines allows):
 * every locked package must accept it, or `npm ci` prints EBADENGINE although nothing runs on it.
 */
describe("the Node that runs npm (devEngines)", () => {
  it('is accepted by every package in the lockfile', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const semver = require('semver') as { minVersion(range: string): { version: string } | null; satisfies(version: string, range: string): boolean };
    const oldest = semver.minVersion(manifest.devEngines.runtime.version)?.version;
    expect(oldest).toMatch(/^20\./);
    const lock = JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: Record<string, string> | string[] }> };
    const refusing = Object.entries(lock.packages)
      .filter(([path]) => path !== '')
      .map(([path, entry]) => ({ path, node: Array.isArray(entry.engines) ? undefined : entry.engines?.['node'] }))
      .filter(({ node }) => node !== undefined && !semver.satisfies(oldest as string, node as string));
    expect(refusing).toEqual([]);
  });
});
