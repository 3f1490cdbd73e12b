import { IntegrationRuleViolation } from './integration-rule-violation';

/** For specs: the IntegrationRuleViolation `run` throws (anything else thrown, or nothing, fails). */
export function violationOf(run: () => unknown): IntegrationRuleViolation {
  try {
    run();
  } catch (error) {
    if (error instanceof IntegrationRuleViolation) return error;
    throw error;
  }
  throw new Error('expected an IntegrationRuleViolation');
}
