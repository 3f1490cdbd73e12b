import { CatalogueError } from './deprecation.errors';
import { CatalogueFile, parseCatalogue } from './catalogue-parser';

const POLICY: CatalogueFile = {
  name: 'policy.yaml',
  text: `catalogue: policy
spec_section: "9.2"
rules:
  - { id: announce-then-remove, rule: Each release announces deprecated features. }
breaking_definition: Something stops working.
`,
};
const HISTORY: CatalogueFile = {
  name: 'history.yaml',
  text: `catalogue: feature_history
spec_section: "9.1"
features:
  - { id: test-alerts, feature: Test alerts, introduced_in: "13.2" }
`,
};

function schedule(entries: string, defaults = '  removal_milestone: "15.0"\n  area: ci_cd_configuration\n'): CatalogueFile {
  return { name: '15.0-ci-cd.yaml', text: `catalogue: schedule\nspec_section: "9.4"\ndefaults:\n${defaults}entries:\n${entries}` };
}

const GOOD_ENTRY = `  - id: type-and-types-keywords
    title: type and types keywords
    kind: removal
    breaking: true
    change: Removed; use stage and stages.
`;

function failure(files: CatalogueFile[]): CatalogueError {
  try {
    parseCatalogue(files);
  } catch (error) {
    if (error instanceof CatalogueError) return error;
    throw error;
  }
  throw new Error('the catalogue was accepted');
}

describe('parseCatalogue', () => {
  it('reads a well-formed catalogue, applying the file defaults to entries that state nothing else', () => {
    const catalogue = parseCatalogue([schedule(GOOD_ENTRY, '  removal_milestone: "15.0"\n  planned_date: "2022-05-22"\n  area: ci_cd_configuration\n'), POLICY, HISTORY]);
    expect(catalogue.entries).toEqual([
      {
        id: 'type-and-types-keywords',
        title: 'type and types keywords',
        area: 'ci_cd_configuration',
        kind: 'removal',
        removal_milestone: '15.0',
        planned_date: '2022-05-22',
        breaking: true,
        change: 'Removed; use stage and stages.',
        replacement: null,
        identifiers: [],
        other_milestones: [],
        spec_section: '9.4',
      },
    ]);
    expect(catalogue.feature_history).toEqual([{ id: 'test-alerts', feature: 'Test alerts', introduced_in: '13.2', changes: [] }]);
  });

  it('names file, field and line of a missing required field', () => {
    const error = failure([schedule(`  - id: no-kind\n    title: T\n    breaking: true\n    change: C\n`), POLICY, HISTORY]);
    expect(error.file).toBe('15.0-ci-cd.yaml');
    expect(error.field).toBe('entries[0]');
    expect(error.line).toBe(7);
    expect(error.message).toBe('Deprecation catalogue 15.0-ci-cd.yaml:7: entries[0]: missing required field kind');
  });

  it('refuses an unquoted milestone, which YAML would read as a number (15.10 -> 15.1)', () => {
    const error = failure([schedule(GOOD_ENTRY.replace('    kind: removal\n', '    kind: removal\n    removal_milestone: 15.10\n')), POLICY, HISTORY]);
    expect(error.field).toBe('entries[0].removal_milestone');
    expect(error.line).toBe(10);
    expect(error.reason).toContain('quoted');
  });

  it.each([
    ['an unknown area', '    area: pipelines\n', 'entries[0].area', 'must be one of'],
    ['an unknown kind of change', '', 'entries[0].kind', 'must be one of'],
    ['a malformed date', '    planned_date: "22/05/2022"\n', 'entries[0].planned_date', 'YYYY-MM-DD'],
    ['a misspelt field', '    replacment: Use stage.\n', 'entries[0].replacment', 'unknown field'],
    ['a breaking flag that is not a boolean', '', 'entries[0].breaking', 'true or false'],
    ['an identifier of an unknown kind', '    identifiers:\n      - { kind: thing, name: type }\n', 'entries[0].identifiers[0].kind', 'must be one of'],
  ])('refuses %s', (_, extra, field, reason) => {
    let entry = GOOD_ENTRY + extra;
    if (field === 'entries[0].kind') entry = entry.replace('kind: removal', 'kind: removed');
    if (field === 'entries[0].breaking') entry = entry.replace('breaking: true', 'breaking: "yes"');
    const error = failure([schedule(entry), POLICY, HISTORY]);
    expect(error.field).toBe(field);
    expect(error.reason).toContain(reason);
    expect(error.line).toEqual(expect.any(Number));
  });

  it('refuses an entry without a milestone in a file without a default one', () => {
    const error = failure([schedule(GOOD_ENTRY, '  area: ci_cd_configuration\n'), POLICY, HISTORY]);
    expect(error.field).toBe('entries[0].removal_milestone');
  });

  it('refuses the same id twice, naming where it was first used', () => {
    const error = failure([schedule(GOOD_ENTRY + GOOD_ENTRY), POLICY, HISTORY]);
    expect(error.field).toBe('entries[1].id');
    expect(error.reason).toContain('duplicate id type-and-types-keywords (first used in 15.0-ci-cd.yaml)');
  });

  it('reports invalid YAML with its line', () => {
    const error = failure([{ name: 'broken.yaml', text: 'catalogue: schedule\nentries: [\n' }, POLICY, HISTORY]);
    expect(error.file).toBe('broken.yaml');
    expect(error.field).toBe('(yaml)');
    expect(error.line).toBe(3);
  });

  it('needs a policy file and a feature history file', () => {
    expect(failure([schedule(GOOD_ENTRY), HISTORY]).reason).toContain('no policy file');
    expect(failure([schedule(GOOD_ENTRY), POLICY]).reason).toContain('no feature history file');
  });
});
