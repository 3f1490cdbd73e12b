import { AccessLevel, hasAccessLevel, ProjectTier } from '@alert-ingestion/contracts';
import { AccessErrors, TokenRejection } from './access-errors';
import { Principal, ProjectAccess } from './principal';

/** A personal access token as stored: only its SHA-256, with its owner and lifetime. */
export interface StoredAccessToken {
  userId: bigint;
  username: string;
  expiresAt: Date;
  revokedAt: Date | null;
}

/** A token is usable until its expiry instant (exclusive) and while not revoked. */
export function tokenRejection(token: StoredAccessToken | undefined, now: Date): TokenRejection | null {
  if (!token) return 'unknown';
  if (token.revokedAt !== null) return 'revoked';
  if (now.getTime() >= token.expiresAt.getTime()) return 'expired';
  return null;
}

/** A project and the caller's membership in it, as stored. */
export interface ProjectMembership {
  projectId: bigint;
  tier: ProjectTier;
  /** Null: the caller is not a member. */
  accessLevel: AccessLevel | null;
}

/** A record id in a path (`/projects/:id`, `/alert_integrations/:iid`): a positive bigint of at most 18 digits; anything else names no record. */
export function parsePathId(text: unknown): bigint | undefined {
  return typeof text === 'string' && /^[1-9][0-9]{0,17}$/.test(text) ? BigInt(text) : undefined;
}

/**
 * Whether a principal may act on a project with at least `required`: the administrator on every
 * existing project, a user on the projects they are a member of with a role high enough. Throws the
 * refusal (404 before 403, so a project's existence is not revealed to non-members).
 */
export function authorizeProject(principal: Principal, project: ProjectMembership | undefined, required: AccessLevel): ProjectAccess {
  if (!project) throw AccessErrors.projectNotFound();
  if (principal.kind === 'admin') return { projectId: project.projectId, tier: project.tier, accessLevel: null };
  if (project.accessLevel === null) throw AccessErrors.projectNotFound();
  if (!hasAccessLevel(project.accessLevel, required)) throw AccessErrors.roleTooLow(required, project.accessLevel);
  return { projectId: project.projectId, tier: project.tier, accessLevel: project.accessLevel };
}
