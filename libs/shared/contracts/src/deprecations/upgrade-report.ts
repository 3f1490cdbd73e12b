import type { ChangeKind, DeprecationArea } from './deprecation-entry';

/** One thing that is removed or changes at a milestone: an entry's removal, or another dated stage of it. */
export interface ScheduledChange {
  readonly milestone: string;
  readonly id: string;
  readonly title: string;
  readonly area: DeprecationArea;
  readonly kind: ChangeKind;
  readonly breaking: boolean;
  readonly planned_date: string | null;
  readonly change: string;
  readonly what_to_do: string;
  readonly spec_section: string;
}

export interface MilestoneChanges {
  readonly milestone: string;
  readonly changes: readonly Omit<ScheduledChange, 'milestone'>[];
}

export interface UpgradeReport {
  readonly from: string;
  readonly to: string;
  readonly milestones: readonly MilestoneChanges[];
}
