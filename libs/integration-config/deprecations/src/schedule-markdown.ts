import { DEPRECATION_AREA_TITLES, DeprecationCatalogue } from './deprecation-catalogue';
import { groupByMilestone, scheduledChanges } from './upgrade-report';

/** Written at the top of the generated page; the CLI's --check mode compares the whole text. */
export const SCHEDULE_MARKDOWN_HEADER =
  '<!-- Generated from libs/integration-config/deprecations/catalogue by `npm run deprecations -- schedule`. Do not edit by hand. -->';

function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
}

/**
 * The entry's id with an anchor named by it, so links (SARIF rule help among them) can point at
 * `docs/deprecations.md#<id>`. An entry with other milestones is listed at each of them: only its
 * removal row carries the anchor, as an id may occur once in a page.
 */
function idCell(id: string, anchored: boolean): string {
  return anchored ? `<a id="${id}"></a>\`${id}\`` : `\`${id}\``;
}

/**
 * The whole schedule as Markdown: the policy (spec 9.2), then every milestone in numeric order with
 * its changes, breaking ones first and marked. Deterministic (no dates of generation), so the file
 * can be kept in the repository and compared in CI.
 */
export function renderScheduleMarkdown(catalogue: DeprecationCatalogue): string {
  const lines: string[] = [
    SCHEDULE_MARKDOWN_HEADER,
    '',
    '# Deprecation and removal schedule',
    '',
    `Spec sections 9.2 to 9.6. ${catalogue.entries.length} scheduled items; breaking changes are marked **Breaking** and listed first in each milestone.`,
    'Check a pipeline configuration against it with `npm run deprecations -- check .gitlab-ci.yml --target <milestone>`.',
    '',
    `## Policy (spec ${catalogue.policy.spec_section})`,
    '',
    ...catalogue.policy.rules.map((rule, index) => `${index + 1}. ${cell(rule.rule)}`),
    '',
    `What "breaking" means here: ${cell(catalogue.policy.breaking_definition)}`,
    '',
  ];
  const removalMilestoneOf = new Map(catalogue.entries.map((entry) => [entry.id, entry.removal_milestone]));
  for (const group of groupByMilestone(scheduledChanges(catalogue))) {
    const breaking = group.changes.filter((change) => change.breaking).length;
    lines.push(
      `## ${group.milestone}`,
      '',
      `${group.changes.length} change${group.changes.length === 1 ? '' : 's'}, ${breaking} breaking.`,
      '',
      '| | Item | Planned | Area | Change | What to do instead | Id |',
      '|---|---|---|---|---|---|---|',
      ...group.changes.map(
        (change) =>
          `| ${change.breaking ? '**Breaking**' : ''} | ${cell(change.title)} | ${change.planned_date ?? 'not shown'} | ${DEPRECATION_AREA_TITLES[change.area]} | ${cell(change.change)} | ${cell(change.what_to_do)} | ${idCell(change.id, removalMilestoneOf.get(change.id) === group.milestone)} |`,
      ),
      '',
    );
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
