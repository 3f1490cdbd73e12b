import { LoadFigures, median } from './load-generator';

/** The services' kinds, as the scale benchmark names their processes and their broker connections. */
export const SERVICE_KINDS = ['gateways', 'processors', 'integration-config'] as const;

/** The processes whose CPU the scale benchmark reports, in its table's order (kafka only for a broker of its own). */
export const CPU_COLUMNS = ['gateway', 'processor', 'kafka', 'postgresql', 'client'] as const;

/** What one round of one configuration (gateways x processors) measured; per alert means per accepted alert of the round. */
export interface ScaleRow extends LoadFigures {
  gateways: number;
  processors: number;
  allStored: boolean;
  /** Raw alerts per processor transaction (batch) during the round. */
  alertsPerBatch: number;
  /** CPU microseconds per alert by process kind (CPU_COLUMNS; gateways and processors summed over their instances). */
  cpuPerAlert: ReadonlyMap<string, number>;
  /** Bytes the broker sent per alert on its connections, by kind of client (SERVICE_KINDS, and others seen). */
  brokerSentPerAlert: ReadonlyMap<string, number>;
  /** Bytes the broker received per alert, by kind of client. */
  brokerReceivedPerAlert: ReadonlyMap<string, number>;
  eventsPerSecond: number;
  eventLagP50Ms: number;
  eventLagP99Ms: number;
}

/** A configuration's line of the table: the medians of its rounds, and the pace its relays drained a backlog at (NaN: not measured). */
export interface ScaleLine extends ScaleRow {
  backlogEventsPerSecond: number;
}

/**
 * The instance counts of a variable such as BENCH_SCALE_GATEWAYS ("1,2,4"): positive integers,
 * in the order given.
 */
export function parseInstanceCounts(text: string, variable: string): number[] {
  const counts = text.split(',').map((part) => part.trim());
  if (counts.some((count) => !/^[1-9]\d*$/.test(count))) throw new Error(`${variable} is a comma-separated list of positive integers, not "${text}"`);
  return counts.map(Number);
}

/** The bytes of the services' connections (every kind in SERVICE_KINDS) of a by-kind map. */
export function servicesTotal(byKind: ReadonlyMap<string, number>): number {
  return SERVICE_KINDS.reduce((sum, kind) => sum + (byKind.get(kind) ?? 0), 0);
}

function medianMap(maps: ReadonlyArray<ReadonlyMap<string, number>>): Map<string, number> {
  const names = [...new Set(maps.flatMap((map) => [...map.keys()]))];
  return new Map(names.map((name) => [name, median(maps.map((map) => map.get(name) ?? 0))]));
}

/** One configuration's rounds as one row: the median of each figure; stored only if every round stored all. */
export function medianRow(rounds: readonly ScaleRow[]): ScaleRow {
  const of = (figure: (row: ScaleRow) => number) => median(rounds.map(figure));
  return {
    gateways: rounds[0].gateways,
    processors: rounds[0].processors,
    alertsPerSecond: of((row) => row.alertsPerSecond),
    p50: of((row) => row.p50),
    p99: of((row) => row.p99),
    allStored: rounds.every((row) => row.allStored),
    alertsPerBatch: of((row) => row.alertsPerBatch),
    cpuPerAlert: medianMap(rounds.map((row) => row.cpuPerAlert)),
    brokerSentPerAlert: medianMap(rounds.map((row) => row.brokerSentPerAlert)),
    brokerReceivedPerAlert: medianMap(rounds.map((row) => row.brokerReceivedPerAlert)),
    eventsPerSecond: of((row) => row.eventsPerSecond),
    eventLagP50Ms: of((row) => row.eventLagP50Ms),
    eventLagP99Ms: of((row) => row.eventLagP99Ms),
  };
}

const whole = (value: number) => (Number.isNaN(value) ? '-' : Math.round(value).toLocaleString('en-US'));
const tenths = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(1));

/** The lines as a Markdown table, one configuration a line. */
export function scaleTable(rows: readonly ScaleLine[]): string[] {
  const header = [
    'gateways',
    'processors',
    'alerts/s',
    'p50 ms',
    'p99 ms',
    'stored',
    'alerts per processor batch',
    ...CPU_COLUMNS.map((name) => `CPU µs/alert ${name}`),
    'CPU µs/alert total',
    'broker sent B/alert to processors',
    'to gateways',
    'to services',
    'broker received B/alert from services',
    'events/s',
    'event lag p50 ms',
    'event lag p99 ms',
    'backlog drained events/s',
  ];
  const lines = rows.map((row) => {
    const cpu = CPU_COLUMNS.map((name) => row.cpuPerAlert.get(name));
    const total = cpu.reduce<number>((sum, micros) => sum + (micros ?? 0), 0);
    return [
      String(row.gateways),
      String(row.processors),
      whole(row.alertsPerSecond),
      tenths(row.p50),
      tenths(row.p99),
      row.allStored ? 'all' : 'MISSING',
      tenths(row.alertsPerBatch),
      ...cpu.map((micros) => (micros === undefined ? '-' : whole(micros))),
      whole(total),
      whole(row.brokerSentPerAlert.get('processors') ?? 0),
      whole(row.brokerSentPerAlert.get('gateways') ?? 0),
      whole(servicesTotal(row.brokerSentPerAlert)),
      whole(servicesTotal(row.brokerReceivedPerAlert)),
      whole(row.eventsPerSecond),
      tenths(row.eventLagP50Ms),
      tenths(row.eventLagP99Ms),
      whole(row.backlogEventsPerSecond),
    ];
  });
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...lines.map(line)];
}
