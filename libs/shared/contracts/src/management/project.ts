import type { HttpSchemas } from '../http';

/** A project as `POST /projects` and `PUT /projects/:id` answer it. */
export type Project = HttpSchemas['ProjectDto'];

/** A project as its reader sees it (`GET /projects`, `GET /projects/:id`): with the caller's role. */
export type ProjectWithAccess = HttpSchemas['ProjectWithAccessDto'];

export type Member = HttpSchemas['MemberDto'];
