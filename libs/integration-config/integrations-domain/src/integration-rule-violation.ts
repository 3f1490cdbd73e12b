/**
 * What kind of rule a request broke; the feature layer maps each kind to one HTTP status
 * (invalid -> 400, forbidden -> 403, conflict -> 409).
 */
export type IntegrationRuleKind = 'invalid' | 'forbidden' | 'conflict';

/** A management request that breaks a rule of the spec. `code` is the `error` of the JSON error body. */
export class IntegrationRuleViolation extends Error {
  constructor(
    readonly kind: IntegrationRuleKind,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'IntegrationRuleViolation';
  }
}
