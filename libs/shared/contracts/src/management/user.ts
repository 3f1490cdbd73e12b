/** `POST /users` (CONTRACT.md "Management API"): the new user and a personal access token. */
export interface CreatedUser {
  id: number;
  username: string;
  /** The personal access token, shown only here; only its SHA-256 is stored. */
  token: string;
  token_expires_at: string;
}

/** `GET /user`: who the token belongs to. The administrator token belongs to no user (`id` null). */
export interface CurrentUser {
  id: number | null;
  username: string;
  is_admin: boolean;
}
