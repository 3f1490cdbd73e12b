import { ACCESS_LEVELS, AccessLevel, Project } from '../api/types';

/**
 * The lowest role each action needs (spec 1.7 and 5.2, CONTRACT.md): the console offers a control
 * only to roles that may use it; the API decides anyway.
 */
export const REQUIRED_ROLE = {
  viewAlerts: 'developer',
  changeAlertStatus: 'developer',
  sendTestAlert: 'developer',
  manageIntegrations: 'maintainer',
  viewMembers: 'maintainer',
  manageMembers: 'owner',
} as const satisfies Record<string, AccessLevel>;

export type ProjectAction = keyof typeof REQUIRED_ROLE;

/** The administrator has no membership (`access_level` null) and may do what an owner may. */
export function effectiveRole(project: Pick<Project, 'access_level'>): AccessLevel {
  return project.access_level ?? 'owner';
}

export function can(project: Pick<Project, 'access_level'>, action: ProjectAction): boolean {
  return ACCESS_LEVELS.indexOf(effectiveRole(project)) >= ACCESS_LEVELS.indexOf(REQUIRED_ROLE[action]);
}

export function roleLabel(level: AccessLevel | null): string {
  if (level === null) return 'Administrator';
  return level.charAt(0).toUpperCase() + level.slice(1);
}

export function tierLabel(tier: Project['tier']): string {
  return tier === 'premium' ? 'Premium' : 'Free';
}
