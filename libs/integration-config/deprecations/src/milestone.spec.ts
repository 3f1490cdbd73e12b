import { InvalidMilestoneError } from './deprecation.errors';
import { compareMilestones, isMilestone, parseMilestone } from './milestone';

describe('milestones', () => {
  it('compares numerically, part by part: 15.10 comes after 15.9', () => {
    expect(compareMilestones('15.10', '15.9')).toBeGreaterThan(0);
    expect(compareMilestones('15.9', '15.10')).toBeLessThan(0);
    expect(compareMilestones('16.0', '15.10')).toBeGreaterThan(0);
    expect(compareMilestones('15.0', '15.0')).toBe(0);
    expect(['16.0', '15.10', '14.10', '15.9', '15.0'].sort(compareMilestones)).toEqual(['14.10', '15.0', '15.9', '15.10', '16.0']);
  });

  it.each(['15', '15.', '.9', '15.0.1', 'v15.0', '15.01', '015.0', ' 15.0', 'fifteen', ''])('refuses %j', (text) => {
    expect(isMilestone(text)).toBe(false);
    expect(() => parseMilestone('to', text)).toThrow(InvalidMilestoneError);
  });

  it('names the parameter in the error and carries a stable code', () => {
    const error = (() => {
      try {
        parseMilestone('from', '15');
      } catch (thrown) {
        return thrown as InvalidMilestoneError;
      }
      throw new Error('no error');
    })();
    expect(error.message).toContain('from');
    expect(error.code).toBe('invalid_milestone');
  });
});
