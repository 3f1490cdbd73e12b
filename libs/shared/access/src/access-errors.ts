import { AccessLevel } from '@alert-ingestion/contracts';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '@alert-ingestion/http';

/** Why a presented token lets nobody in. */
export type TokenRejection = 'unknown' | 'expired' | 'revoked';

/**
 * The refusals of access control, in one place so that every service answers the same situation
 * with the same status and body (CONTRACT.md: 401 no or unknown token, 403 role too low, 404
 * unknown project or not a member).
 */
export const AccessErrors = {
  tokenRequired: () => new UnauthorizedError('A token is required: send "Authorization: Bearer <token>" or "PRIVATE-TOKEN: <token>".'),
  tokenRejected: (reason: TokenRejection) =>
    new UnauthorizedError({ unknown: 'The token is not valid.', expired: 'The token has expired.', revoked: 'The token has been revoked.' }[reason]),
  adminOnly: () => new ForbiddenError('Only the administrator may do this.'),
  /** Unknown projects and projects the caller is not a member of look the same: existence is not revealed. */
  projectNotFound: () => new NotFoundError('Project not found.', 'project_not_found'),
  roleTooLow: (required: AccessLevel, actual: AccessLevel) =>
    new ForbiddenError(`This needs at least the ${required} role in the project; you are ${actual}.`, 'insufficient_role'),
};
