/**
 * What a processor instance runs (PROCESSOR_ROLES); every instance runs both by default.
 * - `intake`: the raw alert pipeline (alerts.raw.v1 into PostgreSQL, replies to the gateways), the
 *   gateway's delivery records, and the event relays that publish what intake committed.
 * - `workflow`: what follows an alert's events (the alert settings): incidents opened and closed by
 *   alerts, alert emails recorded and sent.
 * Processors of the workflow role alone keep an alert storm's incidents and emails off the cores
 * intake needs (docs/operating.md "The alert workflow apart from intake"): the workflow reads
 * alerts.events.v1 in groups of its own, so it falls behind and catches up without holding a
 * payload back. Every instance serves the alerts API whatever its roles.
 */
export const PROCESSOR_ROLES = ['intake', 'workflow'] as const;

export type ProcessorRole = (typeof PROCESSOR_ROLES)[number];

/** Whether a processor of these roles runs `role`. */
export function runsRole(roles: readonly ProcessorRole[], role: ProcessorRole): boolean {
  return roles.includes(role);
}
