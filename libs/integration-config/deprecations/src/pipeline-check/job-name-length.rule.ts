import { jobsOf } from './pipeline-configuration';
import { identifiersError, identifiersOf, PipelineRule, scheduledIn, subjectOf } from './pipeline-rule';

const RULE = 'job_name_length';

/** Spec 9.4 and 8: job names are limited to 255 characters from 15.0; longer names stop working. */
export const jobNameLengthRule: PipelineRule = {
  rule: RULE,
  deprecationId: 'job-name-length-limit',
  prepare(entry) {
    const [limit] = identifiersOf(entry, 'limit', RULE);
    if (typeof limit.value !== 'number') throw identifiersError(entry, `the limit of rule ${RULE} must be a number`);
    const maximum = limit.value;
    return (configuration) =>
      configuration.documents.flatMap((document) =>
        jobsOf(document)
          // Hidden jobs never run, so their names are not job names.
          .filter((job) => !job.hidden)
          .flatMap((job) => {
            // Characters, not UTF-16 code units.
            const length = [...job.name].length;
            if (length <= maximum) return [];
            return [
              {
                line: configuration.lineOf(job.keyNode),
                message: `Job name of ${length} characters (${[...job.name].slice(0, 40).join('')}...) is over the ${maximum}-character limit from ${scheduledIn(entry)}.`,
                replacement: entry.replacement,
                subject: subjectOf(job.name),
              },
            ];
          }),
      );
  },
};
