import { Document, isMap, isScalar, isSeq, LineCounter, Node, parseAllDocuments, Scalar, visit, YAMLMap } from 'yaml';
import { InvalidPipelineYamlError } from '../deprecation.errors';

/**
 * A parsed pipeline configuration: the YAML syntax tree (never converted to plain values, so
 * aliases are not expanded and every node keeps its place in the text) plus line lookup.
 */
export interface PipelineConfiguration {
  readonly source: string;
  /** Root mapping of each YAML document; a file may hold a header document before `---`. */
  readonly documents: readonly YAMLMap[];
  lineOf(node: Node): number;
  /** 1-based line of an offset into `source`. */
  lineAt(offset: number): number;
  /**
   * The top-level key whose entry holds the node (or offset): the job, hidden job or global keyword
   * (`variables`, `include`, `default`...) a finding sits in; '' before the first key. Findings are
   * fingerprinted by it rather than by their line, which moves whenever lines are added above.
   */
  contextOf(node: Node): string;
  contextAt(offset: number): string;
}

/** A top-level key of a document that is not a global keyword: a job, or a hidden job (template) when it starts with ".". */
export interface PipelineJob {
  readonly name: string;
  readonly keyNode: Scalar;
  readonly value: Node | null;
  readonly hidden: boolean;
}

export interface KeyedNode {
  readonly key: string;
  readonly keyNode: Scalar;
  readonly value: Node | null;
}

/** Top-level keywords of a pipeline configuration that are not jobs. */
const GLOBAL_KEYWORDS = new Set([
  'default',
  'include',
  'stages',
  'variables',
  'workflow',
  'image',
  'services',
  'cache',
  'before_script',
  'after_script',
  'types',
  'spec',
]);

function positionOf(lines: LineCounter, offset: number): { line: number; col: number } {
  const position = lines.linePos(offset);
  // LineCounter reports line 0 before the first newline it has seen.
  return { line: Math.max(position.line, 1), col: Math.max(position.col, 1) };
}

/**
 * Parses the text as YAML 1.1 (merge keys `<<` included), the dialect pipeline configurations are
 * written in, with duplicate keys allowed as the platform's own parser allows them. Invalid YAML,
 * an alias to an unknown anchor, or a document that is not a mapping throws InvalidPipelineYamlError
 * with the parser's line.
 */
export function parsePipelineConfiguration(source: string): PipelineConfiguration {
  const lines = new LineCounter();
  const parsed = parseAllDocuments(source, { lineCounter: lines, prettyErrors: false, version: '1.1', uniqueKeys: false });
  const documents: YAMLMap[] = [];
  for (const document of parsed as Document.Parsed[]) {
    const [error] = document.errors;
    if (error !== undefined) {
      const { line, col } = positionOf(lines, error.pos[0]);
      throw new InvalidPipelineYamlError(line, col, error.message);
    }
    assertAliasesResolve(document, lines);
    const root = document.contents;
    if (root === null || (isScalar(root) && root.value === null)) continue;
    if (!isMap(root)) {
      const { line, col } = positionOf(lines, root.range?.[0] ?? 0);
      throw new InvalidPipelineYamlError(line, col, 'a pipeline configuration must be a mapping of keywords and jobs');
    }
    documents.push(root);
  }
  const lineAt = (offset: number) => positionOf(lines, offset).line;
  // Top-level keys in text order across documents: an offset belongs to the last key that starts at or before it.
  const topLevelKeys = documents.flatMap((document) => keyedNodes(document).map(({ key, keyNode }) => ({ key, start: keyNode.range?.[0] ?? 0 })));
  const contextAt = (offset: number) => topLevelKeys.findLast((entry) => entry.start <= offset)?.key ?? '';
  return {
    source,
    documents,
    lineAt,
    lineOf: (node) => lineAt(node.range?.[0] ?? 0),
    contextAt,
    contextOf: (node) => contextAt(node.range?.[0] ?? 0),
  };
}

function assertAliasesResolve(document: Document.Parsed, lines: LineCounter): void {
  visit(document, {
    Alias(_, alias) {
      if (alias.resolve(document) === undefined) {
        const { line, col } = positionOf(lines, alias.range?.[0] ?? 0);
        throw new InvalidPipelineYamlError(line, col, `alias *${alias.source} refers to no anchor`);
      }
    },
  });
}

/** The scalar-keyed pairs of a mapping, in order. */
export function keyedNodes(node: Node | null | undefined): KeyedNode[] {
  if (!isMap(node)) return [];
  return node.items.flatMap((pair) =>
    isScalar(pair.key) && typeof pair.key.value === 'string'
      ? [{ key: pair.key.value, keyNode: pair.key, value: (pair.value as Node | null) ?? null }]
      : [],
  );
}

export function valueOf(node: Node | null | undefined, key: string): Node | null {
  return keyedNodes(node).find((pair) => pair.key === key)?.value ?? null;
}

export function keyNodeOf(node: Node | null | undefined, key: string): Scalar | null {
  return keyedNodes(node).find((pair) => pair.key === key)?.keyNode ?? null;
}

export function jobsOf(document: YAMLMap): PipelineJob[] {
  return keyedNodes(document)
    .filter((pair) => !GLOBAL_KEYWORDS.has(pair.key))
    .map((pair) => ({ name: pair.key, keyNode: pair.keyNode, value: pair.value, hidden: pair.key.startsWith('.') }));
}

/** Every scalar under `node` (keys included) whose value is text, in document order. */
export function textScalars(node: Node | null): Scalar<string>[] {
  const found: Scalar<string>[] = [];
  if (node === null) return found;
  if (isScalar(node)) return typeof node.value === 'string' ? [node as Scalar<string>] : [];
  visit(node, {
    Scalar(_, scalar) {
      if (typeof scalar.value === 'string') found.push(scalar as Scalar<string>);
    },
  });
  return found;
}

/** `extends` of a job as a list of names (it may be one name or a list). */
export function extendsOf(job: PipelineJob): string[] {
  const value = valueOf(job.value, 'extends');
  if (isScalar(value) && typeof value.value === 'string') return [value.value];
  if (isSeq(value)) return value.items.flatMap((item) => (isScalar(item) && typeof item.value === 'string' ? [item.value] : []));
  return [];
}

/** A job belongs to a product (container scanning, dependency scanning) by its name or what it extends. */
export function jobMatches(job: PipelineJob, pattern: RegExp): boolean {
  return pattern.test(job.name) || extendsOf(job).some((name) => pattern.test(name));
}

/** Scalars under the document's `include` that name a matching template or file. */
export function includesMatching(document: YAMLMap, pattern: RegExp): Scalar<string>[] {
  return textScalars(valueOf(document, 'include')).filter((scalar) => pattern.test(scalar.value));
}

export interface TokenOccurrence {
  readonly token: string;
  readonly line: number;
  /** The top-level key it is written under (see PipelineConfiguration.contextAt). */
  readonly context: string;
}

/**
 * Finds every occurrence of a token in scalar text (keys and values, not comments) and reports the
 * line where it is written, also inside multi-line block scalars. It searches the node's source text
 * rather than its value so that offsets map to lines.
 */
export function findTokens(configuration: PipelineConfiguration, pattern: RegExp): TokenOccurrence[] {
  const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
  const found: TokenOccurrence[] = [];
  for (const document of configuration.documents) {
    for (const scalar of textScalars(document)) {
      const [start, end] = scalar.range ?? [0, 0];
      const text = configuration.source.slice(start, end);
      for (const match of text.matchAll(global)) {
        const offset = start + (match.index ?? 0);
        found.push({ token: match[1] ?? match[0], line: configuration.lineAt(offset), context: configuration.contextAt(offset) });
      }
    }
  }
  return found;
}
