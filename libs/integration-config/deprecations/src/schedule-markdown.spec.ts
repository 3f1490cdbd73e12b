import { DeprecationCatalogue, DeprecationEntry } from './deprecation-catalogue';
import { deprecationEntry } from './deprecation-entry.fixture';
import { loadDeprecationCatalogue } from './catalogue-loader';
import { renderScheduleMarkdown, SCHEDULE_MARKDOWN_HEADER } from './schedule-markdown';

function entry(id: string, removal_milestone: string, fields: Partial<DeprecationEntry> = {}): DeprecationEntry {
  return deprecationEntry(id, removal_milestone, { area: 'ci_cd_configuration', ...fields });
}

const catalogue: DeprecationCatalogue = {
  entries: [
    entry('later', '15.10', { planned_date: '2023-03-22' }),
    entry('minor', '15.9'),
    entry('breaking-one', '15.9', { breaking: true, change: 'Use a | b.', replacement: 'Do\n  this.' }),
  ],
  policy: { spec_section: '9.2', rules: [{ id: 'one', rule: 'Each release announces deprecated features.' }], breaking_definition: 'Stops working.' },
  feature_history: [],
};

describe('renderScheduleMarkdown', () => {
  const markdown = renderScheduleMarkdown(catalogue);

  it('starts with the generated-file header and the policy', () => {
    expect(markdown.startsWith(`${SCHEDULE_MARKDOWN_HEADER}\n`)).toBe(true);
    expect(markdown).toContain('1. Each release announces deprecated features.');
    expect(markdown).toContain('What "breaking" means here: Stops working.');
  });

  it('lists milestones in numeric order, breaking changes first and marked', () => {
    const headings = markdown.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toEqual(['## Policy (spec 9.2)', '## 15.9', '## 15.10']);
    const rows = markdown.split('\n').filter((line) => line.startsWith('| ') && line.includes('`'));
    expect(rows[0]).toMatch(/^\| \*\*Breaking\*\* \| breaking-one \| not shown \|/);
    expect(rows[1]).toMatch(/^\| {2}\| minor \|/);
    expect(rows[2]).toContain('| later | 2023-03-22 |');
  });

  it('keeps table cells on one line and escapes pipes', () => {
    expect(markdown).toContain('| Use a \\| b. | Do this. |');
  });

  it('gives every entry one anchor named by its id, on its removal row (what SARIF rule help links to)', () => {
    const staged = renderScheduleMarkdown({
      ...catalogue,
      entries: [entry('staged', '16.0', { other_milestones: [{ milestone: '15.6', planned_date: null, kind: 'end_of_support', breaking: false, change: 'End.' }] })],
    });
    const rows = staged.split('\n').filter((line) => line.includes('`staged`'));
    expect(rows).toHaveLength(2);
    expect(staged.split('<a id="staged"></a>')).toHaveLength(2);
    expect(staged.slice(staged.indexOf('## 16.0'))).toContain('<a id="staged"></a>`staged`');
  });

  it('is deterministic and covers every entry of the real catalogue', () => {
    const real = loadDeprecationCatalogue();
    const page = renderScheduleMarkdown(real);
    expect(renderScheduleMarkdown(real)).toBe(page);
    for (const item of real.entries) expect(page.split(`<a id="${item.id}"></a>\`${item.id}\``)).toHaveLength(2);
    expect(page.split('\n').filter((line) => line.startsWith('| **Breaking**')).length).toBeGreaterThan(0);
  });
});
