/** `POST /users` (CONTRACT.md "Management API"): the new user and a personal access token. */
export interface CreatedUser {
  id: number;
  username: string;
  /** Where alert emails go (lower-case); null: none. */
  email: string | null;
  /** The personal access token, shown only here; only its SHA-256 is stored. */
  token: string;
  token_expires_at: string;
}

/** `GET /user`: who the token belongs to. The administrator token belongs to no user (`id` null). */
export interface CurrentUser {
  id: number | null;
  username: string;
  /**
   * The user's email address (lower-case); null for none and for the administrator token. Always in
   * the answer; optional here only so that a caller that does not read it need not invent one.
   */
  email?: string | null;
  is_admin: boolean;
}

/** `PUT /users/:id` (admin): a user as stored. */
export interface User {
  id: number;
  username: string;
  email: string | null;
}
