export { DEPRECATION_AREA_TITLES as AREA_TITLES } from '@console/api/types';

/** "removal" -> "Removal", "behaviour_change" -> "Behaviour change". */
export function kindLabel(kind: string): string {
  const text = kind.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Milestones in release order (15.10 after 15.9). */
export function compareMilestones(a: string, b: string): number {
  const [aMajor, aMinor] = a.split('.').map(Number);
  const [bMajor, bMinor] = b.split('.').map(Number);
  return aMajor - bMajor || aMinor - bMinor;
}

/** A release as MAJOR.MINOR (16.0), as the upgrade report and the checker take it. */
export const MILESTONE = /^\d+\.\d+$/;

export function entryLink(id: string): string {
  return `/deprecations?entry=${encodeURIComponent(id)}`;
}
