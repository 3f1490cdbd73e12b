import { OnCallMember } from '@console/api/oncall';
import { zonedDateTime } from '@console/lib/zoned-time';

/** Why someone is on call, in a few words: "Weekdays", "override of Weekdays", "override of the schedule". */
export function reasonText(reason: OnCallMember['reasons'][number]): string {
  if (reason.source === 'rotation') return reason.rotation?.name ?? 'rotation';
  return reason.rotation ? `override of ${reason.rotation.name}` : 'override of the schedule';
}

/** Who is on call, each with why and until when (in the schedule's zone); "Nobody" when no one is. */
export function OnCallMembers({ members, timeZone }: { members: readonly OnCallMember[]; timeZone: string }) {
  if (members.length === 0) return <span className="oncall-nobody">Nobody</span>;
  return (
    <ul className="oncall-members">
      {members.map((member) => (
        <li key={member.user.id}>
          <strong>@{member.user.username}</strong>{' '}
          <span className="muted">
            ({member.reasons.map((reason) => `${reasonText(reason)}, until ${zonedDateTime(reason.shift_ends_at, timeZone)}`).join('; ')})
          </span>
        </li>
      ))}
    </ul>
  );
}
