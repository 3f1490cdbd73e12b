import { MilestoneChanges, ScheduledChange, UpgradeReport } from '@alert-ingestion/contracts';
import { DEPRECATION_AREAS, DeprecationCatalogue, MilestoneStage } from './deprecation-catalogue';
import { InvalidUpgradeRangeError } from './deprecation.errors';
import { compareMilestones, parseMilestone } from './milestone';

export type { MilestoneChanges, ScheduledChange, UpgradeReport } from '@alert-ingestion/contracts';

/** Said when the spec names no replacement (e.g. "Request profiling: Removed."). */
export const NO_REPLACEMENT = 'No replacement is scheduled: stop relying on it before upgrading.';

/** Every dated change of the catalogue: each entry at its removal milestone, plus its other stages at theirs. */
export function scheduledChanges(catalogue: DeprecationCatalogue): ScheduledChange[] {
  return catalogue.entries.flatMap((entry) => {
    const common = { id: entry.id, title: entry.title, area: entry.area, what_to_do: entry.replacement ?? NO_REPLACEMENT, spec_section: entry.spec_section };
    const removal: MilestoneStage = { milestone: entry.removal_milestone, planned_date: entry.planned_date, kind: entry.kind, breaking: entry.breaking, change: entry.change };
    return [removal, ...entry.other_milestones].map((stage) => ({
      ...common,
      milestone: stage.milestone,
      kind: stage.kind,
      breaking: stage.breaking,
      planned_date: stage.planned_date,
      change: stage.change,
    }));
  });
}

/** Groups changes by milestone in numeric order; within a milestone breaking changes come first, then by area, then catalogue order. */
export function groupByMilestone(changes: readonly ScheduledChange[]): MilestoneChanges[] {
  const sorted = [...changes].sort(
    (a, b) =>
      compareMilestones(a.milestone, b.milestone) ||
      Number(b.breaking) - Number(a.breaking) ||
      DEPRECATION_AREAS.indexOf(a.area) - DEPRECATION_AREAS.indexOf(b.area),
  );
  const groups: { milestone: string; changes: Omit<ScheduledChange, 'milestone'>[] }[] = [];
  for (const { milestone, ...change } of sorted) {
    const last = groups.at(-1);
    if (last !== undefined && last.milestone === milestone) last.changes.push(change);
    else groups.push({ milestone, changes: [change] });
  }
  return groups;
}

export interface UpgradeRange {
  readonly from: string;
  readonly to: string;
}

const RANGE_PARAMETERS = ['from', 'to'];

/**
 * Reads `from` and `to` (query parameters, or CLI options). Both are required milestones and `from`
 * may not be later than `to`; equal milestones are a valid, empty range.
 */
export function parseUpgradeRange(parameters: Readonly<Record<string, unknown>>): UpgradeRange {
  const unknown = Object.keys(parameters).filter((name) => !RANGE_PARAMETERS.includes(name));
  if (unknown.length > 0) throw new InvalidUpgradeRangeError(`unknown parameter ${unknown.join(', ')}; give only from and to`);
  const { from, to } = parameters;
  if (typeof from !== 'string' || from === '' || typeof to !== 'string' || to === '') {
    throw new InvalidUpgradeRangeError('from and to are both required, once each, as milestones MAJOR.MINOR (for example from=15.9&to=16.0)');
  }
  const range = { from: parseMilestone('from', from), to: parseMilestone('to', to) };
  if (compareMilestones(range.from, range.to) > 0) {
    throw new InvalidUpgradeRangeError(`from (${range.from}) is later than to (${range.to}); an upgrade goes from an earlier to a later milestone`);
  }
  return range;
}

/**
 * What is removed or changes when upgrading: everything scheduled after `from` (exclusive: `from`
 * is the release already running) up to and including `to`, grouped by milestone.
 */
export function buildUpgradeReport(catalogue: DeprecationCatalogue, range: UpgradeRange): UpgradeReport {
  const inRange = scheduledChanges(catalogue).filter(
    (change) => compareMilestones(change.milestone, range.from) > 0 && compareMilestones(change.milestone, range.to) <= 0,
  );
  return { from: range.from, to: range.to, milestones: groupByMilestone(inRange) };
}
