import { isMap } from 'yaml';
import { jobsOf, keyNodeOf } from './pipeline-configuration';
import { identifiersOf, PipelineRule, RuleHit, scheduledIn, subjectOf } from './pipeline-rule';

const RULE = 'type_keywords';

/**
 * Spec 9.4: the `type` (job) and `types` (global) keywords are removed; use `stage` and `stages`.
 * Only those two places count: `type:` elsewhere (e.g. the type of a `spec:inputs` entry) is another keyword.
 * Hidden jobs are checked too: jobs inherit their keys through `extends` and anchors.
 */
export const typeKeywordsRule: PipelineRule = {
  rule: RULE,
  deprecationId: 'type-and-types-keywords',
  prepare(entry) {
    const replacementOf = new Map(identifiersOf(entry, 'keyword', RULE).map((keyword) => [keyword.name, keyword.replacement]));
    const hit = (keyword: 'type' | 'types', line: number, job: string | null): RuleHit => {
      const replacement = replacementOf.get(keyword) ?? null;
      const where = job === null ? '' : ` of job ${job}`;
      return {
        line,
        message: `The ${keyword} keyword${where} is removed in ${scheduledIn(entry)}; use ${replacement}.`,
        replacement,
        subject: job === null ? subjectOf(keyword) : subjectOf(job, keyword),
      };
    };
    return (configuration) =>
      configuration.documents.flatMap((document) => {
        const hits: RuleHit[] = [];
        const types = keyNodeOf(document, 'types');
        if (types !== null) hits.push(hit('types', configuration.lineOf(types), null));
        for (const job of jobsOf(document)) {
          const type = isMap(job.value) ? keyNodeOf(job.value, 'type') : null;
          if (type !== null) hits.push(hit('type', configuration.lineOf(type), job.name));
        }
        return hits;
      });
  },
};
