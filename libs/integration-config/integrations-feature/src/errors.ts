import { IntegrationRuleViolation } from '@alert-ingestion/integrations-domain';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '@alert-ingestion/http';

/** The 404 of an integration id that names no integration of the project (also one that is no id at all). */
export function integrationNotFound(): NotFoundError {
  return new NotFoundError('Integration not found.', 'integration_not_found');
}

/** The 404 of a user id that names no member of the project (also one that is no id at all). */
export function memberNotFound(userId: bigint | string): NotFoundError {
  return new NotFoundError(`User ${userId} is not a member of the project.`, 'member_not_found');
}

/**
 * Runs pure rule checks, turning a rule violation into its HTTP error: the one place a broken
 * integration rule becomes an HTTP status (invalid 400, forbidden 403, conflict 409).
 */
export function applyRules<T>(rules: () => T): T {
  try {
    return rules();
  } catch (error) {
    if (!(error instanceof IntegrationRuleViolation)) throw error;
    switch (error.kind) {
      case 'invalid':
        throw new BadRequestError(error.code, error.message);
      case 'forbidden':
        throw new ForbiddenError(error.message, error.code);
      case 'conflict':
        throw new ConflictError(error.message, error.code);
    }
  }
}
