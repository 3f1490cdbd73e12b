import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brokenLinks, documentationFiles, githubSlug, markdownAnchors, markdownLinks } from './markdown-links';

const repoRoot = join(__dirname, '..', '..', '..');

describe('githubSlug (the anchor GitHub gives a heading)', () => {
  it.each([
    ['Run it', 'run-it'],
    ['Signed webhooks (Grafana)', 'signed-webhooks-grafana'],
    ['The Node.js runtime', 'the-nodejs-runtime'],
    ['Install scripts (`allowScripts`)', 'install-scripts-allowscripts'],
    ['One alert, file by file', 'one-alert-file-by-file'],
    ['Policy (spec 9.2)', 'policy-spec-92'],
    ['snake_case and dash-case', 'snake_case-and-dash-case'],
    ['A [linked](https://example.com) **bold** heading', 'a-linked-bold-heading'],
    ['Café à la carte', 'café-à-la-carte'],
  ])('%s -> %s', (heading, slug) => {
    expect(githubSlug(heading)).toBe(slug);
  });

  it('numbers repeated headings, and offers HTML anchors, but not headings inside code blocks', () => {
    const anchors = markdownAnchors('# Notes\n## Notes\n## Notes\n```sh\n# not a heading\n```\n| <a id="entry-1"></a> |\n');
    expect([...anchors].sort()).toEqual(['entry-1', 'notes', 'notes-1', 'notes-2']);
  });
});

describe('markdownLinks', () => {
  it('finds links, images and reference definitions with their lines, and none in code', () => {
    const markdown = [
      'See [the guide](docs/guide.md#intro "Guide") and ![a picture](images/a.png).',
      '`[not a link](nowhere.md)` and',
      '```md',
      '[not a link either](nowhere.md)',
      '```',
      '[ref]: other.md',
      '<img src="images/b.png" alt="b">',
    ].join('\n');
    expect(markdownLinks(markdown)).toEqual([
      { target: 'docs/guide.md#intro', image: false, line: 1 },
      { target: 'images/a.png', image: true, line: 1 },
      { target: 'other.md', image: false, line: 6 },
      { target: 'images/b.png', image: true, line: 7 },
    ]);
  });
});

describe('brokenLinks', () => {
  let root: string;
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'links-'));
    write('docs/guide.md', '# Guide\n\n## Signed webhooks (Grafana)\n\n![ok](images/ok.png)\n');
    write('docs/images/ok.png', 'png');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('accepts links to files, headings and images that exist, and leaves other sites alone', () => {
    write('README.md', '[g](docs/guide.md#signed-webhooks-grafana) [top](#readme) [site](https://example.com/x.md#y)\n\n# Readme\n');
    expect(brokenLinks(root, ['README.md', 'docs/guide.md'])).toEqual([]);
  });

  it('names each missing file, anchor and image, with where the link is', () => {
    write('README.md', '# Readme\n\n[gone](docs/gone.md)\n[anchor](docs/guide.md#signed-webhooks)\n[here](#nowhere)\n![pic](docs/images/missing.png)\n');
    expect(brokenLinks(root, ['README.md'])).toEqual([
      'README.md:3: link docs/gone.md: docs/gone.md does not exist',
      'README.md:4: link docs/guide.md#signed-webhooks: docs/guide.md has no heading or anchor "signed-webhooks"',
      'README.md:5: link #nowhere: README.md has no heading or anchor "nowhere"',
      'README.md:6: image docs/images/missing.png: docs/images/missing.png does not exist',
    ]);
  });
});

describe("the repository's documentation", () => {
  const files = documentationFiles(repoRoot);

  it('is README.md, docs/*.md, the benchmark results and the README of every app and library', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'docs/api-guide.md',
        'docs/architecture.md',
        'docs/console.md',
        'docs/deprecations.md',
        'docs/development.md',
        'docs/operating.md',
        'docs/consuming-events.md',
        'docs/events.md',
        'bench/RESULTS.md',
        'apps/gateway/README.md',
        'apps/console/README.md',
        'libs/integration-config/deprecations/README.md',
      ]),
    );
  });

  it('has no relative link to a missing file or anchor, and no missing image', () => {
    expect(brokenLinks(repoRoot, files)).toEqual([]);
  });
});
