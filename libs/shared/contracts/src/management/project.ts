import type { AccessLevel } from '../access';
import type { ProjectTier } from '../alert';

/** A project as `POST /projects` and `PUT /projects/:id` answer it. */
export interface Project {
  id: number;
  path: string;
  tier: ProjectTier;
}

/** A project as its reader sees it (`GET /projects`, `GET /projects/:id`): with the caller's role. */
export interface ProjectWithAccess extends Project {
  /** null for the administrator, who may do everything an owner may. */
  access_level: AccessLevel | null;
}

export interface Member {
  user_id: number;
  username: string;
  access_level: AccessLevel;
}
