import { InvalidMilestoneError } from './deprecation.errors';

/**
 * Milestones are release numbers MAJOR.MINOR. They compare numerically, part by part, so 15.10
 * comes after 15.9. Leading zeros are refused: "15.01" would be ambiguous.
 */
const MILESTONE_PATTERN = /^(0|[1-9]\d*)\.(0|[1-9]\d*)$/;

export function isMilestone(text: string): boolean {
  return MILESTONE_PATTERN.test(text);
}

/** Returns the milestone unchanged when well formed; `parameter` names the input in the error. */
export function parseMilestone(parameter: string, text: string): string {
  if (!isMilestone(text)) throw new InvalidMilestoneError(parameter, text);
  return text;
}

function parts(milestone: string): [number, number] {
  const match = MILESTONE_PATTERN.exec(milestone);
  if (match === null) throw new InvalidMilestoneError('milestone', milestone);
  return [Number(match[1]), Number(match[2])];
}

/** Negative when a is earlier than b, zero when equal, positive when later. */
export function compareMilestones(a: string, b: string): number {
  const [majorA, minorA] = parts(a);
  const [majorB, minorB] = parts(b);
  return majorA !== majorB ? majorA - majorB : minorA - minorB;
}
