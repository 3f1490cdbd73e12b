import { AccessLevel, ProjectTier } from '@alert-ingestion/contracts';

/** Who is calling: the administrator (ADMIN_TOKEN) or a user (personal access token). */
export type Principal = { kind: 'admin' } | { kind: 'user'; userId: bigint; username: string };

/** A project a route acts on, once the caller has been let in. */
export interface ProjectAccess {
  projectId: bigint;
  tier: ProjectTier;
  /** The caller's role in the project; null for the administrator, who is no member but may do everything. */
  accessLevel: AccessLevel | null;
}
