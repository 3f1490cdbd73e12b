import { AlertSilence } from '@alert-ingestion/contracts';

/**
 * Why the workflow left a silenced alert alone, for its timeline: as Alertmanager mutes
 * notifications while a silence matches, and PagerDuty opens no incident in a maintenance window.
 * `consequence` says what did not happen ("no email was sent").
 */
export function silenceReason(silence: Pick<AlertSilence, 'id' | 'comment'>, consequence: string): string {
  const comment = silence.comment.replace(/\s+/g, ' ').trim();
  const shown = comment.length > 120 ? `${comment.slice(0, 119)}…` : comment;
  return `Silenced by silence #${silence.id}${shown ? ` (${shown})` : ''}: ${consequence}.`;
}
