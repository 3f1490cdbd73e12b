import { DeprecationArea } from '../../api/types';

export const AREA_TITLES: Record<DeprecationArea, string> = {
  interface_and_api: 'Interface and API changes',
  ci_cd_configuration: 'CI/CD configuration',
  administration_and_deployment: 'Administration and deployment',
};

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

export function entryLink(id: string): string {
  return `/deprecations?entry=${encodeURIComponent(id)}`;
}
