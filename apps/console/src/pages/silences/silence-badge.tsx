import { Link } from 'react-router';
import { AlertSilence, SilenceState } from '@console/api/types';
import { exactTime } from '@console/lib/time';

export const SILENCE_STATE_LABELS: Readonly<Record<SilenceState, string>> = { active: 'Active', pending: 'Pending', expired: 'Expired' };

/** The badge of an alert an active silence covers: links to the silence, says until when and why. */
export function SilencedBadge({ projectId, silence }: { projectId: number; silence: AlertSilence }) {
  return (
    <Link
      to={`/projects/${projectId}/silences/${silence.id}/edit`}
      className="badge badge-silenced"
      title={`Silenced until ${exactTime(silence.ends_at)}: ${silence.comment}`}
    >
      Silenced
    </Link>
  );
}

export function SilenceStateBadge({ state }: { state: SilenceState }) {
  return <span className={`badge badge-silence-${state}`}>{SILENCE_STATE_LABELS[state]}</span>;
}
