/** Project roles, lowest first (CONTRACT.md "Management API": `access_level`). */
export const ACCESS_LEVELS = ['guest', 'reporter', 'developer', 'maintainer', 'owner'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

/** Whether `level` is `required` or higher. */
export function hasAccessLevel(level: AccessLevel, required: AccessLevel): boolean {
  return ACCESS_LEVELS.indexOf(level) >= ACCESS_LEVELS.indexOf(required);
}

/**
 * The lowest role for each action on a project, the "who" column of CONTRACT.md. Spec 1.7 and 5.2:
 * at least Maintainer views the integration list and creates, edits and configures integrations;
 * Maintainer or Owner enables the external link integration (the same set, as Owner is above
 * Maintainer); at least Developer sends a test alert. The administrator may do everything.
 *
 * `listIntegrations` is our one widening of the contract: a developer who may send a test alert
 * must be able to name the integration to send it to, so `GET .../alert_integrations` (id, name,
 * type and status: no URL, key, sample payload or mapping) is developer+. Viewing and configuring
 * an integration (`GET .../:iid` and the rest) stays maintainer+.
 */
export const REQUIRED_ACCESS_LEVEL = {
  readProject: 'guest',
  listMembers: 'maintainer',
  manageMembers: 'owner',
  listIntegrations: 'developer',
  manageIntegrations: 'maintainer',
  enableExternalLink: 'maintainer',
  sendTestAlert: 'developer',
  readAlerts: 'developer',
  changeAlertStatus: 'developer',
  // The alert workflow: developers assign alerts and write notes on timelines (alerts', incidents').
  assignAlerts: 'developer',
  writeNotes: 'developer',
  // Silences, as GitLab and Alertmanager teams run them: developers see what is silenced,
  // maintainers decide what pages nobody.
  readSilences: 'developer',
  manageSilences: 'maintainer',
  // Incidents, as alerts: developers see, open, link, close and reopen them. The alert settings
  // decide what the service does for everyone (incidents, email): maintainers set them.
  readIncidents: 'developer',
  manageIncidents: 'developer',
  readAlertSettings: 'developer',
  manageAlertSettings: 'maintainer',
  // On call, as GitLab's on-call schedules: everyone sees who is on call; developers see the
  // schedules, put themselves on call by overrides and reset a calendar URL; maintainers make and
  // change schedules and rotations (and overrides of anyone).
  readOnCall: 'guest',
  readOncallSchedules: 'developer',
  overrideOnCall: 'developer',
  resetOncallCalendarUrl: 'developer',
  manageOncallSchedules: 'maintainer',
  // Escalation: maintainers see and set the policy and the on-call setup as a document (webhook URLs
  // may hold tokens); developers see an alert's escalation and acknowledge it (changeAlertStatus).
  manageEscalationPolicy: 'maintainer',
  readAlertEscalation: 'developer',
} as const satisfies Record<string, AccessLevel>;

export type ProjectAction = keyof typeof REQUIRED_ACCESS_LEVEL;
