import { keyedNodes } from './pipeline-configuration';
import { identifiersOf, PipelineRule, scheduledIn, subjectOf } from './pipeline-rule';

const RULE = 'starboard_directive';

/** Keys that make a top-level mapping a job rather than the agent configuration's directive. */
const JOB_KEYWORDS = ['script', 'run', 'trigger', 'extends', 'stage', 'needs'];

/**
 * Spec 9.5: the cluster agent configuration's `starboard:` directive is replaced by
 * `container_scanning:` in 16.0. It is a top-level key of the agent configuration file; a job that
 * happens to be named starboard is not it.
 */
export const starboardDirectiveRule: PipelineRule = {
  rule: RULE,
  deprecationId: 'agent-config-starboard-directive',
  prepare(entry) {
    const [directive] = identifiersOf(entry, 'agent_directive', RULE);
    const key = directive.name.replace(/:$/, '');
    return (configuration) =>
      configuration.documents.flatMap((document) =>
        keyedNodes(document)
          .filter((pair) => pair.key === key)
          .filter((pair) => !keyedNodes(pair.value).some((inner) => JOB_KEYWORDS.includes(inner.key)))
          .map((pair) => ({
            line: configuration.lineOf(pair.keyNode),
            message: `The agent configuration directive ${directive.name} is replaced in ${scheduledIn(entry)}; use ${directive.replacement}.`,
            replacement: directive.replacement,
            subject: subjectOf(pair.key),
          })),
      );
  },
};
