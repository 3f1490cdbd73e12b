import { medianRow, parseInstanceCounts, ScaleLine, ScaleRow, scaleTable, servicesTotal } from './scale-report';

function row(overrides: Partial<ScaleRow> = {}): ScaleRow {
  return {
    gateways: 2,
    processors: 4,
    alertsPerSecond: 1_234.4,
    p50: 40.04,
    p99: 95.26,
    allStored: true,
    alertsPerBatch: 5.25,
    cpuPerAlert: new Map([
      ['gateway', 300],
      ['processor', 350],
      ['kafka', 250],
      ['postgresql', 260],
      ['client', 50],
    ]),
    brokerSentPerAlert: new Map([
      ['processors', 1_500],
      ['gateways', 120],
      ['integration-config', 10],
      ['the broker itself', 7],
    ]),
    brokerReceivedPerAlert: new Map([
      ['processors', 900],
      ['gateways', 800],
    ]),
    eventsPerSecond: 1_230,
    eventLagP50Ms: 12.34,
    eventLagP99Ms: 80,
    ...overrides,
  };
}

describe('parseInstanceCounts', () => {
  it('reads a comma-separated list of positive integers in its order', () => {
    expect(parseInstanceCounts('1,2,4', 'BENCH_SCALE_GATEWAYS')).toEqual([1, 2, 4]);
    expect(parseInstanceCounts(' 4 , 1', 'BENCH_SCALE_GATEWAYS')).toEqual([4, 1]);
  });

  it('refuses zero, fractions and words, naming the variable', () => {
    for (const text of ['0', '1,,2', '1.5', 'two', '']) {
      expect(() => parseInstanceCounts(text, 'BENCH_SCALE_PROCESSORS')).toThrow(/BENCH_SCALE_PROCESSORS/);
    }
  });
});

describe('servicesTotal', () => {
  it("sums the services' connections only, not the broker's own or other processes'", () => {
    expect(servicesTotal(row().brokerSentPerAlert)).toBe(1_630);
  });
});

describe('medianRow', () => {
  it('takes the median of every figure over the rounds, and stored only when every round stored all', () => {
    const rounds = [
      row({ alertsPerSecond: 1_000, cpuPerAlert: new Map([['gateway', 100]]), allStored: true }),
      row({ alertsPerSecond: 3_000, cpuPerAlert: new Map([['gateway', 300]]), allStored: false }),
      row({ alertsPerSecond: 2_000, cpuPerAlert: new Map([['gateway', 200]]), allStored: true }),
    ];
    const median = medianRow(rounds);
    expect(median.alertsPerSecond).toBe(2_000);
    expect(median.cpuPerAlert).toEqual(new Map([['gateway', 200]]));
    expect(median.allStored).toBe(false);
    expect(median.gateways).toBe(2);
    expect(median.processors).toBe(4);
  });
});

describe('scaleTable', () => {
  it('prints one Markdown line per configuration, the CPU total over the processes measured and "-" for one that was not', () => {
    const line = (overrides: Partial<ScaleLine> = {}): ScaleLine => ({ ...row(overrides), backlogEventsPerSecond: 5_500.4, ...overrides });
    const lines = scaleTable([line(), line({ gateways: 4, cpuPerAlert: new Map([['gateway', 100]]), allStored: false, eventLagP99Ms: NaN, backlogEventsPerSecond: NaN })]);
    expect(lines).toHaveLength(4);
    expect(lines[0].split('|').length - 2).toBe(lines[2].split('|').length - 2);
    expect(lines[2]).toBe('| 2 | 4 | 1,234 | 40.0 | 95.3 | all | 5.3 | 300 | 350 | 250 | 260 | 50 | 1,210 | 1,500 | 120 | 1,630 | 1,700 | 1,230 | 12.3 | 80.0 | 5,500 |');
    expect(lines[3]).toBe('| 4 | 4 | 1,234 | 40.0 | 95.3 | MISSING | 5.3 | 100 | - | - | - | - | 100 | 1,500 | 120 | 1,630 | 1,700 | 1,230 | 12.3 | - | - |');
  });
});
