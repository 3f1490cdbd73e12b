import { hasAccessLevel, REQUIRED_ACCESS_LEVEL, type ProjectAction } from '@alert-ingestion/contracts/access';
import { AccessLevel, Project } from '@console/api/types';

/**
 * Whether the caller's role may do `action` (the contract's table of who may do what, spec 1.7 and
 * 5.2): the console offers a control only to roles that may use it; the API decides anyway.
 */
export function can(project: Pick<Project, 'access_level'>, action: ProjectAction): boolean {
  // The administrator has no membership (`access_level` null) and may do what an owner may.
  return hasAccessLevel(project.access_level ?? 'owner', REQUIRED_ACCESS_LEVEL[action]);
}

export function roleLabel(level: AccessLevel | null): string {
  if (level === null) return 'Administrator';
  return level.charAt(0).toUpperCase() + level.slice(1);
}

export function tierLabel(tier: Project['tier']): string {
  return tier === 'premium' ? 'Premium' : 'Free';
}
