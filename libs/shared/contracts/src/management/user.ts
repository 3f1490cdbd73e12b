import type { HttpSchemas } from '../http';

/** `POST /users` (CONTRACT.md "Management API"): the new user and a personal access token. */
export type CreatedUser = HttpSchemas['CreatedUserDto'];

/** `GET /user`: who the token belongs to. The administrator token belongs to no user (`id` null). */
export type CurrentUser = HttpSchemas['CurrentUserDto'];

/** `PUT /users/:id` (admin): a user as stored. */
export type User = HttpSchemas['UserDto'];
