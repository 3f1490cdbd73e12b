import { Principal } from '@alert-ingestion/access';
import { AlertEvent } from '@alert-ingestion/contracts';

/** The cause of a change a caller of the API made: the user, or no user id for the administrator token. */
export function userCause(principal: Principal): AlertEvent.AlertEventCause {
  return { type: 'user', user_id: principal.kind === 'user' ? Number(principal.userId) : null };
}
