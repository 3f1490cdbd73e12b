import { isMap, isScalar, Node, Scalar, visit } from 'yaml';
import { valueOf } from './pipeline-configuration';
import { identifiersError, identifiersOf, PipelineRule, RuleHit, scheduledIn, subjectOf } from './pipeline-rule';

const RULE = 'analyzer_major_versions';

/**
 * Only images under the analyzers' registry path are analyzer images: `$SECURE_ANALYZERS_PREFIX/...`
 * (the variable the spec names for their location) or a path through security-products (the
 * registry path; not shown in the spec, our choice). A `semgrep:2` from anywhere else is someone's own image.
 */
const ANALYZER_PATH = /SECURE_ANALYZERS_PREFIX|security-products/;
/** The major version a tag pins: `2`, `2.1`, `2.1.3`, `v2`, `2-fips`. */
const TAG_MAJOR = /^v?(\d+)(?:[.-]|$)/;

interface AnalyzerImage {
  readonly analyzer: string;
  readonly lastUnmaintainedMajor: number;
}

interface ImageReference {
  readonly path: string;
  readonly name: string;
  readonly tag: string | null;
}

function parseImageReference(reference: string): ImageReference {
  const withoutDigest = reference.split('@')[0];
  const slash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  const hasTag = colon > slash;
  const repository = hasTag ? withoutDigest.slice(0, colon) : withoutDigest;
  return {
    path: slash === -1 ? '' : repository.slice(0, slash),
    name: slash === -1 ? repository : repository.slice(slash + 1),
    tag: hasTag ? withoutDigest.slice(colon + 1) : null,
  };
}

/** `image: name` or `image: { name: ... }`, wherever it is (jobs, hidden jobs, default:, global). */
function imageNames(document: Node): Scalar<string>[] {
  const found: Scalar<string>[] = [];
  visit(document, {
    Pair(_, pair) {
      if (!isScalar(pair.key) || pair.key.value !== 'image') return;
      const value = pair.value as Node | null;
      const name = isMap(value) ? valueOf(value, 'name') : value;
      if (isScalar(name) && typeof name.value === 'string') found.push(name as Scalar<string>);
    },
  });
  return found;
}

/**
 * Spec 9.4 (and 9.2 rule 3): from 15.0 the listed analyzer majors stop being updated. An image
 * pinned to that major, or an older one, is reported; newer majors and unpinned tags are not.
 */
export const analyzerMajorVersionsRule: PipelineRule = {
  rule: RULE,
  deprecationId: 'analyzer-major-versions',
  prepare(entry) {
    const images = new Map<string, AnalyzerImage>();
    for (const analyzer of identifiersOf(entry, 'analyzer', RULE)) {
      if (typeof analyzer.value !== 'number') throw identifiersError(entry, `analyzer ${analyzer.name} needs its major version as a number for rule ${RULE}`);
      const label = analyzer.context === null ? analyzer.name : `${analyzer.context} analyzer ${analyzer.name}`;
      for (const image of analyzer.aliases.length > 0 ? analyzer.aliases : [analyzer.name]) {
        images.set(image, { analyzer: label, lastUnmaintainedMajor: analyzer.value });
      }
    }
    return (configuration) =>
      configuration.documents.flatMap((document) =>
        imageNames(document).flatMap((node): RuleHit[] => {
          const reference = parseImageReference(node.value);
          const image = images.get(reference.name);
          const major = reference.tag === null ? null : TAG_MAJOR.exec(reference.tag);
          if (image === undefined || major === null || !ANALYZER_PATH.test(reference.path)) return [];
          if (Number(major[1]) > image.lastUnmaintainedMajor) return [];
          return [
            {
              line: configuration.lineOf(node),
              message: `${reference.name}:${reference.tag} pins ${image.analyzer} to major version ${major[1]}, which is no longer updated from ${scheduledIn(entry)}; use a major version above ${image.lastUnmaintainedMajor}.`,
              replacement: `${reference.name} major version above ${image.lastUnmaintainedMajor}`,
              // The image, not its tag: moving from 2 to 2.1 is still the same finding.
              subject: subjectOf(configuration.contextOf(node), reference.name),
            },
          ];
        }),
      );
  },
};
