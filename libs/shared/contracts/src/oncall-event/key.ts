/**
 * Key of an on-call event: `<schedule_id>:<instant>`, the change it stands for. The topic has one
 * partition, so every schedule's events are in order; the key names the change, and a consumer that
 * must act once per change keeps the keys it has seen.
 */
export type OncallEventKey = string;

export function oncallEventKey(scheduleId: string, occurredAt: string): OncallEventKey {
  return `${scheduleId}:${occurredAt}`;
}
