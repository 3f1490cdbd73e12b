import { AccessLevel } from '@alert-ingestion/integrations-domain';
import { ProjectTier } from '@alert-ingestion/contracts';
import type { Request } from 'express';

/** Who is calling: the administrator (ADMIN_TOKEN) or a user (personal access token). */
export type Principal = { kind: 'admin' } | { kind: 'user'; userId: bigint; username: string };

/** The project a route acts on, once ProjectAccessGuard has let the caller in. */
export interface ProjectAccess {
  projectId: bigint;
  tier: ProjectTier;
  /** The caller's role; the administrator counts as owner of every project. */
  accessLevel: AccessLevel;
}

/** The request as the guards leave it. */
export interface ManagementRequest extends Request {
  principal?: Principal;
  projectAccess?: ProjectAccess;
}
