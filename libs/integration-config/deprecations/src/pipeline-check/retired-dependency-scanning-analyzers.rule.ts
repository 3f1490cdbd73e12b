import { isScalar, Node, visit } from 'yaml';
import { jobsOf } from './pipeline-configuration';
import { identifiersOf, PipelineRule, RuleHit, scheduledIn, subjectOf } from './pipeline-rule';

const RULE = 'retired_dependency_scanning_analyzers';

/**
 * Spec 9.4: the Retire-JS and bundler-audit jobs leave dependency scanning in 15.0. References to
 * them in DS_EXCLUDED_ANALYZERS must go, and customised jobs move to gemnasium-dependency_scanning.
 */
export const retiredDependencyScanningAnalyzersRule: PipelineRule = {
  rule: RULE,
  deprecationId: 'retire-js-and-bundler-audit-jobs',
  prepare(entry) {
    const analyzerOf = new Map<string, string>();
    for (const analyzer of identifiersOf(entry, 'analyzer', RULE)) {
      for (const spelling of [analyzer.name, ...analyzer.aliases]) analyzerOf.set(spelling.toLowerCase(), analyzer.name);
    }
    const [variable] = identifiersOf(entry, 'variable', RULE);
    const jobs = new Map(identifiersOf(entry, 'job', RULE).map((job) => [job.name, job.replacement]));
    return (configuration) =>
      configuration.documents.flatMap((document) => {
        const hits: RuleHit[] = [];
        visit(document, {
          Pair(_, pair) {
            if (!isScalar(pair.key) || pair.key.value !== variable.name) return;
            const value = pair.value as Node | null;
            if (!isScalar(value) || typeof value.value !== 'string') return;
            for (const listed of value.value.split(',').map((name) => name.trim())) {
              const analyzer = analyzerOf.get(listed.toLowerCase());
              if (analyzer === undefined) continue;
              hits.push({
                line: configuration.lineOf(value),
                message: `${variable.name} lists ${listed}, whose job is removed from dependency scanning in ${scheduledIn(entry)}; remove it from the list.`,
                replacement: `remove ${listed} from ${variable.name}`,
                subject: subjectOf(configuration.contextOf(value), variable.name, analyzer),
              });
            }
          },
        });
        for (const job of jobsOf(document)) {
          const replacement = jobs.get(job.name);
          if (replacement === undefined) continue;
          hits.push({
            line: configuration.lineOf(job.keyNode),
            message: `Job ${job.name} is removed from dependency scanning in ${scheduledIn(entry)}; move its customisation to ${replacement}.`,
            replacement,
            subject: subjectOf(job.name),
          });
        }
        return hits;
      });
  },
};
