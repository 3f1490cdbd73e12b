import { DeprecationCatalogue, DeprecationEntry } from './deprecation-catalogue';
import { deprecationEntry } from './deprecation-entry.fixture';
import { InvalidMilestoneError, InvalidUpgradeRangeError } from './deprecation.errors';
import { loadDeprecationCatalogue } from './catalogue-loader';
import { buildUpgradeReport, NO_REPLACEMENT, parseUpgradeRange } from './upgrade-report';

function entry(id: string, removal_milestone: string, fields: Partial<DeprecationEntry> = {}): DeprecationEntry {
  return deprecationEntry(id, removal_milestone, { replacement: `instead of ${id}`, ...fields });
}

const catalogue: DeprecationCatalogue = {
  entries: [
    entry('at-15-9', '15.9'),
    entry('at-15-10-minor', '15.10'),
    entry('at-15-10-breaking', '15.10', { breaking: true, replacement: null }),
    entry('at-16-0', '16.0', {
      other_milestones: [{ milestone: '15.6', planned_date: '2022-11-22', kind: 'end_of_support', breaking: false, change: 'End of support.' }],
    }),
  ],
  policy: { spec_section: '9.2', rules: [], breaking_definition: '-' },
  feature_history: [],
};

const report = (from: string, to: string) => buildUpgradeReport(catalogue, parseUpgradeRange({ from, to }));
const shape = (from: string, to: string) => report(from, to).milestones.map((group) => [group.milestone, group.changes.map((change) => change.id)]);

describe('upgrade report', () => {
  it('covers after `from` (exclusive) up to and including `to`', () => {
    expect(shape('15.9', '16.0')).toEqual([
      ['15.10', ['at-15-10-breaking', 'at-15-10-minor']],
      ['16.0', ['at-16-0']],
    ]);
    expect(shape('15.8', '15.9')).toEqual([['15.9', ['at-15-9']]]);
    expect(shape('16.0', '17.0')).toEqual([]);
  });

  it('compares numerically: 15.10 is after 15.9, and 15.9 to 15.10 holds only 15.10', () => {
    expect(shape('15.9', '15.10')).toEqual([['15.10', ['at-15-10-breaking', 'at-15-10-minor']]]);
    expect(shape('15.1', '15.9')).toEqual([
      ['15.6', ['at-16-0']],
      ['15.9', ['at-15-9']],
    ]);
  });

  it('gives an empty report for equal milestones', () => {
    expect(report('15.10', '15.10')).toEqual({ from: '15.10', to: '15.10', milestones: [] });
  });

  it('lists breaking changes first and says what to do instead of each', () => {
    const [group] = report('15.9', '15.10').milestones;
    expect(group.changes.map((change) => [change.id, change.breaking, change.what_to_do])).toEqual([
      ['at-15-10-breaking', true, NO_REPLACEMENT],
      ['at-15-10-minor', false, 'instead of at-15-10-minor'],
    ]);
  });

  it('includes the other stages of an entry at their own milestone', () => {
    const [group] = report('15.5', '15.6').milestones;
    expect(group).toEqual({
      milestone: '15.6',
      changes: [expect.objectContaining({ id: 'at-16-0', kind: 'end_of_support', change: 'End of support.', planned_date: '2022-11-22' })],
    });
  });

  it.each([
    [{ from: '16.0', to: '15.0' }, InvalidUpgradeRangeError, 'later than'],
    [{ from: '15.10', to: '15.9' }, InvalidUpgradeRangeError, 'later than'],
    [{ from: '15', to: '16.0' }, InvalidMilestoneError, 'from must be a milestone'],
    [{ from: '15.0', to: '16.x' }, InvalidMilestoneError, 'to must be a milestone'],
    [{ to: '16.0' }, InvalidUpgradeRangeError, 'required'],
    [{ from: '15.0' }, InvalidUpgradeRangeError, 'required'],
    [{ from: ['15.0', '15.1'], to: '16.0' }, InvalidUpgradeRangeError, 'once'],
    [{ from: '15.0', to: '16.0', target: '16.0' }, InvalidUpgradeRangeError, 'unknown parameter target'],
  ])('refuses %j', (parameters, type, message) => {
    expect(() => parseUpgradeRange(parameters)).toThrow(type);
    expect(() => parseUpgradeRange(parameters)).toThrow(message);
  });

  it('on the real catalogue, 14.10 to 15.0 holds the 57 rows of the 15.0 tables and the 15.0 stages of 9.3 and 9.6', () => {
    const real = buildUpgradeReport(loadDeprecationCatalogue(), parseUpgradeRange({ from: '14.10', to: '15.0' }));
    expect(real.milestones.map((group) => group.milestone)).toEqual(['15.0']);
    const ids = real.milestones[0].changes.map((change) => change.id);
    expect(ids).toHaveLength(19 + 17 + 21 + 2);
    expect(ids).toEqual(expect.arrayContaining(['package-manager-dependencies-without-authentication', 'self-managed-certificate-based-cluster-integration']));
    const flags = real.milestones[0].changes.map((change) => change.breaking);
    expect(flags).toEqual([...flags].sort((a, b) => Number(b) - Number(a)));
  });
});
