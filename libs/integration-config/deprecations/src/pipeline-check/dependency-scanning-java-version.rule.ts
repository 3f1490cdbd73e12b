import { Node } from 'yaml';
import { includesMatching, jobMatches, jobsOf, keyedNodes, valueOf } from './pipeline-configuration';
import { identifiersOf, PipelineRule, scheduledIn, subjectOf } from './pipeline-rule';

const RULE = 'ds_java_version_default';
const DEPENDENCY_SCANNING = /dependency[-_]scanning/i;

/**
 * Spec 9.4: dependency scanning's default Java version changes from 11 to 17 in 15.0; setting
 * DS_Java_Version keeps 11. A file that sets up dependency scanning (a job by name or `extends`, or
 * an include of its template) and sets the variable nowhere gets one finding per such place. The
 * name is matched without regard to case: the platform's own templates spell it DS_JAVA_VERSION.
 */
export const dependencyScanningJavaVersionRule: PipelineRule = {
  rule: RULE,
  deprecationId: 'dependency-scanning-default-java-version',
  prepare(entry) {
    const [variable] = identifiersOf(entry, 'variable', RULE);
    const setsVariable = (variables: Node | null) => keyedNodes(variables).some(({ key }) => key.toLowerCase() === variable.name.toLowerCase());
    return (configuration) =>
      configuration.documents.flatMap((document) => {
        const scanningJobs = jobsOf(document).filter((job) => !job.hidden && jobMatches(job, DEPENDENCY_SCANNING));
        const includes = includesMatching(document, DEPENDENCY_SCANNING);
        const pinned =
          setsVariable(valueOf(document, 'variables')) || jobsOf(document).some((job) => jobMatches(job, DEPENDENCY_SCANNING) && setsVariable(valueOf(job.value, 'variables')));
        if (pinned) return [];
        const places = [
          ...includes.map((include) => ({ node: include, subject: subjectOf('include', include.value) })),
          ...scanningJobs.map((job) => ({ node: job.keyNode, subject: subjectOf(job.name) })),
        ];
        return places.map(({ node, subject }) => ({
          line: configuration.lineOf(node),
          message: `Dependency scanning's default Java version changes from 11 to 17 in ${scheduledIn(entry)} and ${variable.name} is not set; set it to 11 to keep Java 11.`,
          replacement: entry.replacement,
          subject,
        }));
      });
  },
};
