import { Override, ScheduleTimeline } from './final-shifts';
import { Participant, RotationTimeline, RotationVersion } from './rotation';
import { EpochMs } from './zoned-time';

// On-call schedules as stored: what the data layer reads for a command or a view, and what a
// command's plan writes.

export interface StoredSchedule {
  id: string;
  projectId: string;
  name: string;
  description: string | null;
  timeZone: string;
  /** When the calendar feed's secret URL was made (reset); null: none yet. */
  calendarTokenCreatedAt: EpochMs | null;
  createdAt: EpochMs;
  updatedAt: EpochMs;
}

export interface StoredRotationVersion extends RotationVersion {
  id: string;
}

/** A member removed from the project, noted on each rotation they left. */
export interface RemovedParticipant {
  user: Participant;
  removedAt: EpochMs;
}

export interface StoredRotation {
  id: string;
  name: string;
  /** The rotation's place in its schedule (display order). */
  position: number;
  createdAt: EpochMs;
  updatedAt: EpochMs;
  /** Null while the rotation exists; a deleted rotation keeps its past shifts. */
  deletedAt: EpochMs | null;
  /** Every version that matters to what was read (all of them for a command; those overlapping a view's window otherwise). */
  versions: StoredRotationVersion[];
  removedParticipants: RemovedParticipant[];
}

export interface StoredOverride extends Override {
  createdBy: Participant | null;
  createdAt: EpochMs;
}

/** The rules in force now, or last: the latest version. */
export function currentVersion(rotation: StoredRotation): StoredRotationVersion | undefined {
  return rotation.versions.reduce<StoredRotationVersion | undefined>((latest, version) => (!latest || version.effectiveFrom > latest.effectiveFrom ? version : latest), undefined);
}

/** A schedule's rotations and overrides as the final shifts take them. */
export function scheduleTimeline(rotations: readonly StoredRotation[], overrides: readonly StoredOverride[]): ScheduleTimeline {
  const ordered: RotationTimeline[] = [...rotations].sort((a, b) => a.position - b.position || Number(a.id) - Number(b.id));
  return { rotations: ordered, overrides };
}
