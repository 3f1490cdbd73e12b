/** Project roles, lowest first (CONTRACT.md "Management API"). */
export const ACCESS_LEVELS = ['guest', 'reporter', 'developer', 'maintainer', 'owner'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** Whether `level` is `required` or higher. */
export function hasAccessLevel(level: AccessLevel, required: AccessLevel): boolean {
  return ACCESS_LEVELS.indexOf(level) >= ACCESS_LEVELS.indexOf(required);
}

/**
 * The lowest role for each management action (spec 1.7 and 5.2): at least Maintainer views the
 * integration list and creates, edits and configures integrations; Maintainer or Owner enables the
 * external link integration (the same set, as Owner is above Maintainer); at least Developer sends a
 * test alert. Adding members is for owners (and the administrator).
 */
export const REQUIRED_ACCESS_LEVEL = {
  manageIntegrations: 'maintainer',
  enableExternalLink: 'maintainer',
  sendTestAlert: 'developer',
  addMembers: 'owner',
} as const satisfies Record<string, AccessLevel>;

export type ManagementAction = keyof typeof REQUIRED_ACCESS_LEVEL;
