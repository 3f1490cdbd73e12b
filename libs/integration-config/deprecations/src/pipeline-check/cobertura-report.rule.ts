import { isMap, visit } from 'yaml';
import { keyNodeOf, valueOf } from './pipeline-configuration';
import { identifiersOf, PipelineRule, RuleHit, scheduledIn, subjectOf } from './pipeline-rule';

const RULE = 'cobertura_report';

/** Spec 9.4: artifacts:reports:cobertura is replaced by artifacts:reports:coverage_report in 15.0. */
export const coberturaReportRule: PipelineRule = {
  rule: RULE,
  deprecationId: 'artifacts-reports-cobertura',
  prepare(entry) {
    const [keyword] = identifiersOf(entry, 'keyword', RULE);
    return (configuration) => {
      const hits: RuleHit[] = [];
      for (const document of configuration.documents) {
        // artifacts may sit in a job, a hidden job or default:, so every mapping is looked at.
        visit(document, {
          Map(_, map) {
            const reports = valueOf(valueOf(map, 'artifacts'), 'reports');
            const cobertura = isMap(reports) ? keyNodeOf(reports, 'cobertura') : null;
            if (cobertura !== null) {
              hits.push({
                line: configuration.lineOf(cobertura),
                message: `${keyword.name} is replaced in ${scheduledIn(entry)}; use ${keyword.replacement} (only Cobertura files are supported).`,
                replacement: keyword.replacement,
                subject: subjectOf(configuration.contextOf(cobertura), keyword.name),
              });
            }
          },
        });
      }
      return hits;
    };
  },
};
