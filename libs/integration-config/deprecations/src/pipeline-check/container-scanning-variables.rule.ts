import { isMap, Node, YAMLMap } from 'yaml';
import { includesMatching, jobMatches, jobsOf, keyedNodes, PipelineConfiguration, valueOf } from './pipeline-configuration';
import { identifiersError, identifiersOf, PipelineRule, RuleHit, scheduledIn, subjectOf } from './pipeline-rule';

const RULE = 'container_scanning_variables';
const CONTAINER_SCANNING = /container[-_]scanning/i;

/**
 * Spec 9.5: from 16.0 Container Scanning reads CS_* variables, not DOCKER_* ones. DOCKER_HOST,
 * DOCKER_TLS_CERTDIR and the like are everyday Docker-in-Docker settings, so only definitions that
 * configure container scanning count: any DOCKER_* variable of a container scanning job (by name
 * or `extends`), and the four named variables in the global `variables:` of a file that sets up
 * container scanning (such a job, or an include of its template).
 */
export const containerScanningVariablesRule: PipelineRule = {
  rule: RULE,
  deprecationId: 'container-scanning-docker-variables',
  prepare(entry) {
    const named = new Map(identifiersOf(entry, 'variable', RULE).map((variable) => [variable.name, variable.replacement]));
    const [prefix] = identifiersOf(entry, 'variable_prefix', RULE);
    if (prefix.replacement === null) throw identifiersError(entry, `the ${prefix.name} prefix needs a replacement prefix for rule ${RULE}`);
    const replacementPrefix = prefix.replacement;
    const hitsIn = (configuration: PipelineConfiguration, variables: YAMLMap | null, anyPrefixed: boolean): RuleHit[] =>
      keyedNodes(variables).flatMap(({ key, keyNode }) => {
        const replacement = named.get(key);
        const line = configuration.lineOf(keyNode);
        const subject = subjectOf(configuration.contextOf(keyNode), key);
        if (replacement !== undefined && replacement !== null) {
          return [{ line, message: `Container Scanning stops reading ${key} in ${scheduledIn(entry)}; use ${replacement}.`, replacement, subject }];
        }
        if (anyPrefixed && key.startsWith(prefix.name)) {
          return [
            {
              line,
              message: `Container Scanning stops reading ${prefix.name} prefixed variables such as ${key} in ${scheduledIn(entry)}; use the ${replacementPrefix} prefixed variable.`,
              replacement: `${replacementPrefix} prefixed variable`,
              subject,
            },
          ];
        }
        return [];
      });
    return (configuration) =>
      configuration.documents.flatMap((document) => {
        const scanningJobs = jobsOf(document).filter((job) => jobMatches(job, CONTAINER_SCANNING));
        const configured = scanningJobs.length > 0 || includesMatching(document, CONTAINER_SCANNING).length > 0;
        if (!configured) return [];
        return [
          ...hitsIn(configuration, asMap(valueOf(document, 'variables')), false),
          ...scanningJobs.flatMap((job) => hitsIn(configuration, asMap(valueOf(job.value, 'variables')), true)),
        ];
      });
  },
};

function asMap(node: Node | null): YAMLMap | null {
  return isMap(node) ? node : null;
}
