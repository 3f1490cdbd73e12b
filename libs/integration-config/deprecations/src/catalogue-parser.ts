import { isMap, isScalar, isSeq, LineCounter, Node, parseDocument } from 'yaml';
import {
  CHANGE_KINDS,
  ChangeKind,
  DEPRECATION_AREAS,
  DeprecationArea,
  DeprecationCatalogue,
  DeprecationEntry,
  DeprecationIdentifier,
  DeprecationPolicy,
  IDENTIFIER_KINDS,
  MilestoneStage,
  RECEIVER_FEATURE_CHANGE_KINDS,
  ReceiverFeature,
  ReceiverFeatureChange,
} from './deprecation-catalogue';
import { CatalogueError } from './deprecation.errors';
import { isMilestone } from './milestone';

/** One catalogue file as read from disk: `name` is what error messages call it. */
export interface CatalogueFile {
  readonly name: string;
  readonly text: string;
}

const ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const DATE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** A YAML node together with where it sits, so every complaint can name the file, field and line. */
interface Located {
  readonly node: Node | null;
  readonly field: string;
  readonly line: number | null;
}

class FileReader {
  constructor(
    private readonly file: string,
    private readonly lines: LineCounter,
  ) {}

  fail(at: Located, reason: string): never {
    throw new CatalogueError(this.file, at.field, at.line, reason);
  }

  lineOf(node: Node | null | undefined): number | null {
    const offset = node?.range?.[0];
    return offset === undefined ? null : this.lines.linePos(offset).line;
  }

  root(node: Node | null): Located {
    return { node, field: '(document)', line: this.lineOf(node) ?? 1 };
  }

  /**
   * Checks a mapping's keys (each one allowed; the required ones, all allowed ones unless told,
   * present) and returns a reader of its fields by key.
   */
  fields(at: Located, allowed: readonly string[], required: readonly string[] = allowed): (key: string) => Located {
    if (!isMap(at.node)) this.fail(at, 'must be a mapping');
    const map = at.node;
    for (const pair of map.items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '(complex key)';
      if (!allowed.includes(key)) {
        this.fail(
          { node: pair.key as Node, field: this.child(at, key), line: this.lineOf(pair.key as Node) },
          `unknown field (allowed: ${allowed.join(', ')})`,
        );
      }
    }
    for (const key of required) {
      if (!map.has(key)) this.fail(at, `missing required field ${key}`);
    }
    return (key) => {
      const pair = map.items.find((item) => isScalar(item.key) && item.key.value === key);
      const node = (pair?.value as Node | null | undefined) ?? null;
      return { node, field: this.child(at, key), line: this.lineOf(node) ?? this.lineOf(pair?.key as Node) ?? at.line };
    };
  }

  items(at: Located): Located[] {
    if (at.node === null) return [];
    if (!isSeq(at.node)) this.fail(at, 'must be a list');
    return at.node.items.map((item, index) => ({
      node: item as Node,
      field: `${at.field}[${index}]`,
      line: this.lineOf(item as Node) ?? at.line,
    }));
  }

  string(at: Located): string {
    if (!isScalar(at.node) || typeof at.node.value !== 'string' || at.node.value.trim() === '') {
      this.fail(at, 'must be a non-empty text');
    }
    return at.node.value.trim();
  }

  optionalString(at: Located): string | null {
    return at.node === null || (isScalar(at.node) && at.node.value === null) ? null : this.string(at);
  }

  boolean(at: Located): boolean {
    if (!isScalar(at.node) || typeof at.node.value !== 'boolean') this.fail(at, 'must be true or false');
    return at.node.value;
  }

  /** Milestones must be quoted: unquoted, YAML reads 15.10 as the number 15.1. */
  milestone(at: Located): string {
    if (isScalar(at.node) && typeof at.node.value === 'number') {
      this.fail(at, `must be a quoted milestone such as "15.10" (unquoted, YAML reads it as the number ${at.node.value})`);
    }
    const text = this.string(at);
    if (!isMilestone(text)) this.fail(at, `must be a milestone MAJOR.MINOR, got ${JSON.stringify(text)}`);
    return text;
  }

  /** null for an absent field, else what `read` makes of it. */
  optional<T>(at: Located, read: (at: Located) => T): T | null {
    return at.node === null ? null : read(at);
  }

  optionalDate(at: Located): string | null {
    return this.optional(at, (dateAt) => this.date(dateAt));
  }

  private date(at: Located): string {
    const text = this.string(at);
    if (!DATE_PATTERN.test(text)) this.fail(at, `must be a date YYYY-MM-DD, got ${JSON.stringify(text)}`);
    return text;
  }

  id(at: Located): string {
    const text = this.string(at);
    if (!ID_PATTERN.test(text)) this.fail(at, `must be kebab-case (a-z, 0-9, -), got ${JSON.stringify(text)}`);
    return text;
  }

  oneOf<T extends string>(at: Located, allowed: readonly T[]): T {
    const text = this.string(at);
    const found = allowed.find((value) => value === text);
    if (found === undefined) this.fail(at, `must be one of ${allowed.join(', ')}, got ${JSON.stringify(text)}`);
    return found;
  }

  private child(at: Located, key: string): string {
    return at.field === '(document)' ? key : `${at.field}.${key}`;
  }
}

type FileKind = 'schedule' | 'policy' | 'feature_history';

interface ParsedFile {
  readonly entries?: readonly { entry: DeprecationEntry; at: Located }[];
  readonly policy?: DeprecationPolicy;
  readonly features?: readonly ReceiverFeature[];
}

interface ScheduleDefaults {
  readonly area: DeprecationArea | null;
  readonly removal_milestone: string | null;
  readonly planned_date: string | null;
}

function readIdentifier(reader: FileReader, at: Located): DeprecationIdentifier {
  const field = reader.fields(at, ['kind', 'name', 'replacement', 'value', 'context', 'aliases'], ['kind', 'name']);
  const valueAt = field('value');
  let value: string | number | null = null;
  if (valueAt.node !== null) {
    if (!isScalar(valueAt.node) || !['string', 'number'].includes(typeof valueAt.node.value)) {
      reader.fail(valueAt, 'must be a number or a text');
    }
    value = valueAt.node.value as string | number;
  }
  return {
    kind: reader.oneOf(field('kind'), IDENTIFIER_KINDS),
    name: reader.string(field('name')),
    replacement: reader.optionalString(field('replacement')),
    value,
    context: reader.optionalString(field('context')),
    aliases: reader.items(field('aliases')).map((item) => reader.string(item)),
  };
}

function readStage(reader: FileReader, at: Located): MilestoneStage {
  const field = reader.fields(at, ['milestone', 'planned_date', 'kind', 'breaking', 'change'], ['milestone', 'kind', 'breaking', 'change']);
  return {
    milestone: reader.milestone(field('milestone')),
    planned_date: reader.optionalDate(field('planned_date')),
    kind: reader.oneOf<ChangeKind>(field('kind'), CHANGE_KINDS),
    breaking: reader.boolean(field('breaking')),
    change: reader.string(field('change')),
  };
}

const ENTRY_FIELDS = [
  'id',
  'title',
  'area',
  'kind',
  'removal_milestone',
  'planned_date',
  'breaking',
  'change',
  'replacement',
  'identifiers',
  'other_milestones',
] as const;

function readEntry(reader: FileReader, at: Located, defaults: ScheduleDefaults, specSection: string): DeprecationEntry {
  const field = reader.fields(at, ENTRY_FIELDS, ['id', 'title', 'kind', 'breaking', 'change']);
  // Defaults mirror the spec's "(2022-05-22 unless stated)": an entry states only what differs.
  const areaAt = field('area');
  const milestoneAt = field('removal_milestone');
  const dateAt = field('planned_date');
  if (areaAt.node === null && defaults.area === null) reader.fail(areaAt, 'missing (no default area in this file)');
  if (milestoneAt.node === null && defaults.removal_milestone === null) {
    reader.fail(milestoneAt, 'missing (no default removal_milestone in this file)');
  }
  return {
    id: reader.id(field('id')),
    title: reader.string(field('title')),
    area: reader.optional(areaAt, (at) => reader.oneOf(at, DEPRECATION_AREAS)) ?? (defaults.area as DeprecationArea),
    kind: reader.oneOf<ChangeKind>(field('kind'), CHANGE_KINDS),
    removal_milestone: reader.optional(milestoneAt, (at) => reader.milestone(at)) ?? (defaults.removal_milestone as string),
    planned_date: reader.optionalDate(dateAt) ?? defaults.planned_date,
    breaking: reader.boolean(field('breaking')),
    change: reader.string(field('change')),
    replacement: reader.optionalString(field('replacement')),
    identifiers: reader.items(field('identifiers')).map((item) => readIdentifier(reader, item)),
    other_milestones: reader.items(field('other_milestones')).map((item) => readStage(reader, item)),
    spec_section: specSection,
  };
}

function readSchedule(reader: FileReader, root: Located): ParsedFile {
  const field = reader.fields(root, ['catalogue', 'spec_section', 'defaults', 'entries'], ['catalogue', 'spec_section', 'entries']);
  const specSection = reader.string(field('spec_section'));
  const defaultsAt = field('defaults');
  let defaults: ScheduleDefaults = { area: null, removal_milestone: null, planned_date: null };
  if (defaultsAt.node !== null) {
    const defaultField = reader.fields(defaultsAt, ['area', 'removal_milestone', 'planned_date'], []);
    defaults = {
      area: reader.optional(defaultField('area'), (areaAt) => reader.oneOf(areaAt, DEPRECATION_AREAS)),
      removal_milestone: reader.optional(defaultField('removal_milestone'), (milestoneAt) => reader.milestone(milestoneAt)),
      planned_date: reader.optionalDate(defaultField('planned_date')),
    };
  }
  const entriesAt = field('entries');
  const items = reader.items(entriesAt);
  if (items.length === 0) reader.fail(entriesAt, 'must list at least one entry');
  return { entries: items.map((at) => ({ entry: readEntry(reader, at, defaults, specSection), at })) };
}

function readPolicy(reader: FileReader, root: Located): ParsedFile {
  const field = reader.fields(root, ['catalogue', 'spec_section', 'rules', 'breaking_definition']);
  const rules = reader.items(field('rules')).map((at) => {
    const rule = reader.fields(at, ['id', 'rule']);
    return { id: reader.id(rule('id')), rule: reader.string(rule('rule')) };
  });
  return { policy: { spec_section: reader.string(field('spec_section')), rules, breaking_definition: reader.string(field('breaking_definition')) } };
}

function readFeatureHistory(reader: FileReader, root: Located): ParsedFile {
  const field = reader.fields(root, ['catalogue', 'spec_section', 'features']);
  const features = reader.items(field('features')).map((at): ReceiverFeature => {
    const feature = reader.fields(at, ['id', 'feature', 'introduced_in', 'changes'], ['id', 'feature', 'introduced_in']);
    const changes = reader.items(feature('changes')).map((changeAt): ReceiverFeatureChange => {
      const change = reader.fields(changeAt, ['milestone', 'kind', 'change']);
      return {
        milestone: reader.milestone(change('milestone')),
        kind: reader.oneOf(change('kind'), RECEIVER_FEATURE_CHANGE_KINDS),
        change: reader.string(change('change')),
      };
    });
    return { id: reader.id(feature('id')), feature: reader.string(feature('feature')), introduced_in: reader.milestone(feature('introduced_in')), changes };
  });
  return { features };
}

function parseCatalogueFile(file: CatalogueFile, reader: FileReader, lines: LineCounter): ParsedFile {
  const document = parseDocument(file.text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const [error] = document.errors;
  if (error !== undefined) {
    throw new CatalogueError(file.name, '(yaml)', lines.linePos(error.pos[0]).line, error.message);
  }
  const root = reader.root(document.contents);
  const field = reader.fields(root, ['catalogue', 'spec_section', 'defaults', 'entries', 'rules', 'breaking_definition', 'features'], ['catalogue']);
  const kind = reader.oneOf<FileKind>(field('catalogue'), ['schedule', 'policy', 'feature_history']);
  if (kind === 'schedule') return readSchedule(reader, root);
  if (kind === 'policy') return readPolicy(reader, root);
  return readFeatureHistory(reader, root);
}

/**
 * Builds the catalogue from its files and validates it as a whole: every entry well formed, ids
 * unique across files, exactly one policy file and one feature history file. Pure: reading the
 * files is the loader's job.
 */
export function parseCatalogue(files: readonly CatalogueFile[]): DeprecationCatalogue {
  const entries: DeprecationEntry[] = [];
  const seenIds = new Map<string, string>();
  let policy: { value: DeprecationPolicy; file: string } | null = null;
  let featureHistory: { value: readonly ReceiverFeature[]; file: string } | null = null;

  for (const file of files) {
    const lines = new LineCounter();
    const reader = new FileReader(file.name, lines);
    const parsed = parseCatalogueFile(file, reader, lines);
    for (const { entry, at } of parsed.entries ?? []) {
      const earlier = seenIds.get(entry.id);
      if (earlier !== undefined) reader.fail({ ...at, field: `${at.field}.id` }, `duplicate id ${entry.id} (first used in ${earlier})`);
      seenIds.set(entry.id, file.name);
      entries.push(entry);
    }
    if (parsed.policy !== undefined) {
      if (policy !== null) throw new CatalogueError(file.name, 'catalogue', 1, `a second policy file (the first is ${policy.file})`);
      policy = { value: parsed.policy, file: file.name };
    }
    if (parsed.features !== undefined) {
      if (featureHistory !== null) {
        throw new CatalogueError(file.name, 'catalogue', 1, `a second feature history file (the first is ${featureHistory.file})`);
      }
      featureHistory = { value: parsed.features, file: file.name };
    }
  }
  if (entries.length === 0) throw new CatalogueError('(catalogue)', 'catalogue', null, 'no schedule file with entries');
  if (policy === null) throw new CatalogueError('(catalogue)', 'catalogue', null, 'no policy file (catalogue: policy)');
  if (featureHistory === null) {
    throw new CatalogueError('(catalogue)', 'catalogue', null, 'no feature history file (catalogue: feature_history)');
  }
  return { entries, policy: policy.value, feature_history: featureHistory.value };
}
