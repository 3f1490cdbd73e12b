import { DeprecationCatalogue, DeprecationEntry } from './deprecation-catalogue';
import { deprecationEntry } from './deprecation-entry.fixture';
import { InvalidDeprecationQueryError, InvalidMilestoneError } from './deprecation.errors';
import { findDeprecations, parseCheckRequest, parseDeprecationQuery } from './deprecation-query';
import { loadDeprecationCatalogue } from './catalogue-loader';

function entry(id: string, removal_milestone: string, fields: Partial<DeprecationEntry> = {}): DeprecationEntry {
  return deprecationEntry(id, removal_milestone, { breaking: true, ...fields });
}

const small: DeprecationCatalogue = {
  entries: [
    entry('a-16-0', '16.0'),
    entry('b-15-10', '15.10', { area: 'administration_and_deployment' }),
    entry('c-15-9', '15.9', { breaking: false }),
    entry('d-15-10', '15.10', { area: 'ci_cd_configuration' }),
    entry('e-15-10', '15.10', { area: 'ci_cd_configuration', title: 'Second in catalogue order' }),
  ],
  policy: { spec_section: '9.2', rules: [], breaking_definition: '-' },
  feature_history: [],
};

describe('parseDeprecationQuery', () => {
  it('reads the four filters', () => {
    expect(parseDeprecationQuery({ removal_milestone: '16.0', breaking: 'false', area: 'ci_cd_configuration', q: ' CI_BUILD ' })).toEqual({
      removal_milestone: '16.0',
      breaking: false,
      area: 'ci_cd_configuration',
      q: 'CI_BUILD',
    });
    expect(parseDeprecationQuery({})).toEqual({ removal_milestone: null, breaking: null, area: null, q: null });
  });

  it.each([
    [{ removal_milestone: '16' }, InvalidMilestoneError],
    [{ breaking: 'yes' }, InvalidDeprecationQueryError],
    [{ area: 'pipelines' }, InvalidDeprecationQueryError],
    [{ q: ['a', 'b'] }, InvalidDeprecationQueryError],
    [{ milestone: '16.0' }, InvalidDeprecationQueryError],
  ])('refuses %j with a 400 error', (parameters, type) => {
    expect(() => parseDeprecationQuery(parameters)).toThrow(type);
  });
});

describe('parseCheckRequest', () => {
  it('reads an optional milestone, the format (json by default) and the path (.gitlab-ci.yml by default)', () => {
    expect(parseCheckRequest({ target: '15.10' })).toEqual({ target: '15.10', format: 'json', path: '.gitlab-ci.yml' });
    expect(parseCheckRequest({})).toEqual({ target: null, format: 'json', path: '.gitlab-ci.yml' });
    expect(parseCheckRequest({ target: '' }).target).toBeNull();
    expect(parseCheckRequest({ format: 'codequality', path: './ci/deploy.yml' })).toEqual({ target: null, format: 'codequality', path: 'ci/deploy.yml' });
  });

  it('names the allowed formats when the format is unknown', () => {
    expect(() => parseCheckRequest({ format: 'sarif' })).toThrow('format must be one of json, codequality, got "sarif"');
  });

  it.each([
    [{ target: '16' }, InvalidMilestoneError],
    [{ target: ['15.0', '16.0'] }, InvalidDeprecationQueryError],
    [{ milestone: '16.0' }, InvalidDeprecationQueryError],
    [{ format: 'xml' }, InvalidDeprecationQueryError],
    [{ format: ['json', 'codequality'] }, InvalidDeprecationQueryError],
    [{ path: '/etc/gitlab-ci.yml' }, InvalidDeprecationQueryError],
    [{ path: '../other/.gitlab-ci.yml' }, InvalidDeprecationQueryError],
  ])('refuses %j', (parameters, type) => {
    expect(() => parseCheckRequest(parameters)).toThrow(type);
  });
});

describe('findDeprecations', () => {
  const all = parseDeprecationQuery({});

  it('sorts by milestone numerically (15.10 after 15.9), then by area as in spec 9.4, then catalogue order', () => {
    expect(findDeprecations(small, all).map((found) => found.id)).toEqual(['c-15-9', 'd-15-10', 'e-15-10', 'b-15-10', 'a-16-0']);
  });

  it('filters by removal milestone, breaking flag and area', () => {
    expect(findDeprecations(small, parseDeprecationQuery({ removal_milestone: '15.10' })).map((found) => found.id)).toEqual([
      'd-15-10',
      'e-15-10',
      'b-15-10',
    ]);
    expect(findDeprecations(small, parseDeprecationQuery({ breaking: 'false' })).map((found) => found.id)).toEqual(['c-15-9']);
    expect(findDeprecations(small, parseDeprecationQuery({ area: 'administration_and_deployment' })).map((found) => found.id)).toEqual([
      'b-15-10',
    ]);
    expect(findDeprecations(small, parseDeprecationQuery({ removal_milestone: '15.1' }))).toEqual([]);
  });

  describe('on the real catalogue', () => {
    const catalogue = loadDeprecationCatalogue();

    it('finds entries by free text in titles, changes and identifiers, case-insensitively, every word required', () => {
      expect(findDeprecations(catalogue, parseDeprecationQuery({ q: 'ci_build_ref_slug' })).map((found) => found.id)).toEqual([
        'ci-build-predefined-variables',
      ]);
      expect(findDeprecations(catalogue, parseDeprecationQuery({ q: 'CS_REGISTRY_USER' })).map((found) => found.id)).toEqual([
        'container-scanning-docker-variables',
      ]);
      expect(findDeprecations(catalogue, parseDeprecationQuery({ q: 'runner paused status' })).map((found) => found.id)).toEqual([
        'runner-status-filter-active-paused',
        'runner-status-values-paused-active',
      ]);
      expect(findDeprecations(catalogue, parseDeprecationQuery({ q: 'no such words anywhere' }))).toEqual([]);
    });

    it('combines filters', () => {
      const found = findDeprecations(catalogue, parseDeprecationQuery({ removal_milestone: '15.0', area: 'ci_cd_configuration', breaking: 'false' }));
      expect(found.map((item) => item.id)).toEqual(['analyzer-image-location', 'analyzer-major-versions']);
    });
  });
});
