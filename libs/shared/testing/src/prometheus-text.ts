/**
 * A reader of the Prometheus text exposition format (version 0.0.4), for tests that scrape
 * `GET /metrics`: https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format
 */

export interface PrometheusSample {
  /** The sample's own name: a histogram's samples are `<name>_bucket`, `<name>_sum` and `<name>_count`. */
  name: string;
  labels: Readonly<Record<string, string>>;
  value: number;
}

export interface PrometheusFamily {
  name: string;
  type: string;
  help: string;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*=\s*"((?:[^"\\]|\\.)*)"\s*(?:,|$)/y;

/** The samples and metric families of a scrape; throws on a line that is not the text format. */
export class PrometheusText {
  readonly samples: readonly PrometheusSample[];
  readonly families: ReadonlyMap<string, PrometheusFamily>;

  constructor(text: string) {
    const samples: PrometheusSample[] = [];
    const families = new Map<string, PrometheusFamily>();
    const family = (name: string) => {
      const known = families.get(name) ?? { name, type: 'untyped', help: '' };
      families.set(name, known);
      return known;
    };
    text.split('\n').forEach((raw, index) => {
      const line = raw.trim();
      if (line === '') return;
      if (line.startsWith('#')) {
        const [, keyword, name, ...rest] = line.split(/\s+/);
        if (keyword === 'HELP' && name) family(name).help = unescape(line.slice(line.indexOf(name) + name.length).trim());
        if (keyword === 'TYPE' && name) family(name).type = rest[0] ?? 'untyped';
        return;
      }
      const match = SAMPLE.exec(line);
      if (!match) throw new Error(`line ${index + 1} is not a Prometheus sample: ${raw}`);
      samples.push({ name: match[1], labels: parseLabels(match[2] ?? '', index + 1), value: parseValue(match[3], index + 1) });
    });
    this.samples = samples;
    this.families = families;
  }

  /** The samples named `name` whose labels include `labels`. */
  select(name: string, labels: Readonly<Record<string, string>> = {}): PrometheusSample[] {
    return this.samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
  }

  /** The type of each named metric family, undefined when the scrape has none of that name. */
  typesOf(names: readonly string[]): Record<string, string | undefined> {
    return Object.fromEntries(names.map((name) => [name, this.families.get(name)?.type]));
  }

  /** The sum of the samples `select` finds (0 when none: a series not yet created counts nothing). */
  value(name: string, labels: Readonly<Record<string, string>> = {}): number {
    return this.select(name, labels).reduce((sum, sample) => sum + sample.value, 0);
  }
}

function parseLabels(text: string, line: number): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const start = LABEL.lastIndex;
    const match = LABEL.exec(text);
    if (!match) {
      if (text.slice(start).trim() === '') break;
      throw new Error(`line ${line}: malformed labels {${text}}`);
    }
    labels[match[1]] = unescape(match[2]);
  }
  return labels;
}

/** A sample value as Prometheus reads it (Go's ParseFloat): special values in any case (prom-client writes `Nan`). */
function parseValue(text: string, line: number): number {
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(text);
  if (special) return special[2].toLowerCase() === 'nan' ? NaN : special[1] === '-' ? -Infinity : Infinity;
  const value = Number(text);
  if (Number.isNaN(value)) throw new Error(`line ${line}: ${text} is not a sample value`);
  return value;
}

function unescape(text: string): string {
  return text.replace(/\\(.)/g, (_, char: string) => (char === 'n' ? '\n' : char));
}

/** `GET <baseUrl>/metrics`, checked to be the Prometheus text format, parsed. */
export async function scrapeMetrics(baseUrl: string): Promise<PrometheusText> {
  const response = await fetch(`${baseUrl}/metrics`);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${baseUrl}/metrics -> ${response.status} ${text.slice(0, 200)}`);
  const contentType = response.headers.get('content-type') ?? '';
  if (!contentType.startsWith('text/plain') || !contentType.includes('version=0.0.4')) {
    throw new Error(`GET ${baseUrl}/metrics answered ${contentType}, not the Prometheus text format`);
  }
  return new PrometheusText(text);
}
