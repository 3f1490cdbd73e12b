import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** A link or image of a Markdown file: `[text](target)`, `![alt](target)` or `<img src="target">`. */
export interface MarkdownLink {
  readonly target: string;
  readonly image: boolean;
  readonly line: number;
}

/** The lines of a Markdown text with fenced code blocks blanked out (kept as empty lines, so line numbers hold). */
function proseLines(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const marker = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined) {
      if (marker === undefined) return line;
      fence = marker;
    } else if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
      fence = undefined;
    }
    return '';
  });
}

/** A line without its inline code spans, which show Markdown without making links. */
function withoutCodeSpans(line: string): string {
  return line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length));
}

/** The text a heading line shows: links as their text, images as their alt text, no code or `*` emphasis marks. */
function headingText(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim();
}

/**
 * The anchor GitHub gives a heading (its github-slugger rules): lower-case, every character that is
 * not a letter, a mark, a number, `_`, `-` or a space removed, spaces turned into `-`.
 */
export function githubSlug(heading: string): string {
  return headingText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a Markdown text offers: its headings' slugs (repeats get `-1`, `-2`, ...) and HTML `id`/`name` anchors. */
export function markdownAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const slug = githubSlug(heading[1]!);
      const count = seen.get(slug) ?? 0;
      seen.set(slug, count + 1);
      anchors.add(count === 0 ? slug : `${slug}-${count}`);
    }
    for (const html of line.matchAll(/<a\s[^>]*\b(?:id|name)="([^"]+)"/g)) anchors.add(html[1]!);
  }
  return anchors;
}

/** The links and images of a Markdown text, outside code blocks and code spans. */
export function markdownLinks(markdown: string): MarkdownLink[] {
  return proseLines(markdown).flatMap((raw, index) => {
    const line = withoutCodeSpans(raw);
    const inline = [...line.matchAll(/(!?)\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => ({
      target: match[2]!,
      image: match[1] === '!',
      line: index + 1,
    }));
    const definitions = [...line.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/g)].map((match) => ({ target: match[1]!, image: false, line: index + 1 }));
    const images = [...line.matchAll(/<img\s[^>]*\bsrc="([^"]+)"/g)].map((match) => ({ target: match[1]!, image: true, line: index + 1 }));
    return [...inline, ...definitions, ...images];
  });
}

/** A link to another site or scheme (`https:`, `mailto:`, `//host`): not checked here. */
function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//');
}

/**
 * What is wrong with the relative links of the given Markdown files (paths relative to root), one
 * message per link: a file or image that does not exist, or an `#anchor` its Markdown file lacks.
 */
export function brokenLinks(root: string, files: readonly string[]): string[] {
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (path: string): Set<string> => {
    let found = anchorsOf.get(path);
    if (!found) anchorsOf.set(path, (found = markdownAnchors(readFileSync(path, 'utf8'))));
    return found;
  };
  const problems: string[] = [];
  for (const file of files) {
    const source = join(root, file);
    for (const { target, image, line } of markdownLinks(readFileSync(source, 'utf8'))) {
      if (target === '' || isExternal(target)) continue;
      const hash = target.indexOf('#');
      const pathPart = decodeURI(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const where = `${file}:${line}: ${image ? 'image' : 'link'} ${target}`;
      const destination = pathPart === '' ? source : resolve(dirname(source), pathPart);
      if (!existsSync(destination)) {
        problems.push(`${where}: ${relative(root, destination)} does not exist`);
        continue;
      }
      if (image && !statSync(destination).isFile()) problems.push(`${where}: not a file`);
      if (anchor !== undefined && anchor !== '') {
        if (!destination.endsWith('.md')) problems.push(`${where}: an anchor into a file that is not Markdown`);
        else if (!anchors(destination).has(anchor)) problems.push(`${where}: ${relative(root, destination)} has no heading or anchor "${anchor}"`);
      }
    }
  }
  return problems;
}

/**
 * The repository's documentation: README.md, docs/*.md, bench/*.md (the benchmark results) and the
 * README.md of every app and library
 * (paths relative to root).
 */
export function documentationFiles(root: string): string[] {
  const markdownIn = (dir: string): string[] =>
    existsSync(join(root, dir)) ? readdirSync(join(root, dir)).filter((name) => name.endsWith('.md')).map((name) => `${dir}/${name}`) : [];
  const readmesUnder = (dir: string): string[] => {
    if (!existsSync(join(root, dir))) return [];
    return readdirSync(join(root, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
      .flatMap((entry) => {
        const folder = `${dir}/${entry.name}`;
        return [...(existsSync(join(root, folder, 'README.md')) ? [`${folder}/README.md`] : []), ...readmesUnder(folder)];
      });
  };
  return ['README.md', ...markdownIn('docs'), ...markdownIn('bench'), ...readmesUnder('apps'), ...readmesUnder('libs')];
}
