import { DeprecationEntry } from '../deprecation-catalogue';
import { findTokens } from './pipeline-configuration';
import { identifiersError, identifiersOf, PipelineRule, scheduledIn, subjectOf, wholeWords } from './pipeline-rule';

/**
 * Variables the schedule removes, each with the variable to use instead. A use is any mention in a
 * key or value (a definition under `variables:`, `$NAME` or `${NAME}` in a script or `rules:if`).
 */
function variableRenameRule(rule: string, deprecationId: string, verb: string): PipelineRule {
  return {
    rule,
    deprecationId,
    prepare(entry: DeprecationEntry) {
      const replacements = new Map<string, string>();
      for (const identifier of identifiersOf(entry, 'variable', rule)) {
        if (identifier.replacement === null) throw identifiersError(entry, `variable ${identifier.name} needs a replacement for rule ${rule}`);
        replacements.set(identifier.name, identifier.replacement);
      }
      const pattern = wholeWords([...replacements.keys()]);
      return (configuration) =>
        findTokens(configuration, pattern).map(({ token, line, context }) => {
          const replacement = replacements.get(token) as string;
          return { line, message: `${token} is ${verb} ${scheduledIn(entry)}; use ${replacement}.`, replacement, subject: subjectOf(context, token) };
        });
    },
  };
}

/** Spec 9.5: every CI_BUILD_* predefined variable, each with its own replacement. */
export const ciBuildVariablesRule = variableRenameRule('ci_build_variables', 'ci-build-predefined-variables', 'removed in');

/** Spec 9.4: the secret detection variables that are ignored from 15.0. */
export const secretDetectionVariablesRule = variableRenameRule(
  'secret_detection_variables',
  'secret-detection-commit-variables',
  'ignored from',
);
