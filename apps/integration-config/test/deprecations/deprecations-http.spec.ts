import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CatalogueError,
  CodeQualityIssue,
  DeprecationEntry,
  DeprecationsModule,
  locateCatalogue,
  PipelineFinding,
  ReceiverFeature,
  UpgradeReport,
} from '@alert-ingestion/deprecations';
import { configureHttpApp } from '@alert-ingestion/http';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { DeprecationsHttpModule } from '../../src/deprecations/deprecations-http.module';
import { DeprecationsController } from '../../src/deprecations/deprecations.controller';
import { FeatureHistoryController } from '../../src/deprecations/feature-history.controller';
import { usePipelineConfigurationBodyParser } from '../../src/deprecations/pipeline-configuration-body-parser';

/**
 * The deprecation endpoints over real HTTP, in an app set up the way integration-config's bootstrap
 * sets it up (shared error filter and validation pipe, text body parser for YAML). No database or
 * Kafka is involved: the catalogue is repository data.
 */
interface ErrorBody {
  error: string;
  message: string;
}

describe('deprecation catalogue over HTTP', () => {
  let app: NestExpressApplication;
  let base: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [DeprecationsHttpModule] }).compile();
    app = moduleRef.createNestApplication<NestExpressApplication>({ logger: false });
    usePipelineConfigurationBodyParser(app);
    configureHttpApp(app);
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/api/v4`;
  });

  afterAll(async () => {
    await app.close();
  });

  // Response bodies are typed by what each endpoint promises; the assertions check that promise.
  const getJson = async <T>(path: string): Promise<{ status: number; body: T }> => {
    const response = await fetch(`${base}${path}`);
    return { status: response.status, body: (await response.json()) as T };
  };
  const check = async (body: string, contentType: string, query = '') => {
    const response = await fetch(`${base}/deprecations/check${query}`, { method: 'POST', headers: { 'Content-Type': contentType }, body });
    return { status: response.status, body: (await response.json()) as { findings: PipelineFinding[] } & ErrorBody };
  };

  describe('GET /deprecations', () => {
    it('lists the whole schedule, sorted by milestone', async () => {
      const { status, body } = await getJson<DeprecationEntry[]>('/deprecations');
      expect(status).toBe(200);
      expect(body).toHaveLength(97);
      const milestones = body.map((entry) => entry.removal_milestone);
      expect(milestones[0]).toBe('14.5');
      expect(milestones.at(-1)).toBe('17.0');
      expect(milestones.indexOf('14.10')).toBeGreaterThan(milestones.lastIndexOf('14.9'));
      expect(body[0]).toEqual(
        expect.objectContaining({ id: 'task-runner-renamed-toolbox', area: 'administration_and_deployment', breaking: true, planned_date: '2021-11-22' }),
      );
    });

    it('filters by removal_milestone, breaking, area and q', async () => {
      const { status, body } = await getJson<DeprecationEntry[]>('/deprecations?removal_milestone=16.0&breaking=true&area=ci_cd_configuration&q=CI_BUILD_REF');
      expect(status).toBe(200);
      expect(body.map((entry) => entry.id)).toEqual(['ci-build-predefined-variables']);
    });

    it.each([
      ['?removal_milestone=16', 'invalid_milestone'],
      ['?breaking=maybe', 'invalid_query'],
      ['?area=everything', 'invalid_query'],
      ['?milestone=16.0', 'invalid_query'],
    ])('answers %s with 400 {error, message}', async (query, error) => {
      const { status, body } = await getJson<ErrorBody>(`/deprecations${query}`);
      expect(status).toBe(400);
      expect(body).toEqual({ error, message: expect.any(String) });
    });
  });

  describe('GET /deprecations/upgrade_report', () => {
    it('reports what changes after from up to and including to, by milestone, breaking first', async () => {
      const { status, body } = await getJson<UpgradeReport>('/deprecations/upgrade_report?from=15.9&to=16.0');
      expect(status).toBe(200);
      expect(body.from).toBe('15.9');
      expect(body.to).toBe('16.0');
      expect(body.milestones.map((group) => group.milestone)).toEqual(['16.0']);
      const { changes } = body.milestones[0];
      expect(changes.map((change) => change.id)).toEqual(expect.arrayContaining(['ci-build-predefined-variables', 'key-value-store-version-5']));
      expect(changes.findIndex((change) => !change.breaking)).toBeGreaterThan(changes.findLastIndex((change) => change.breaking));
      expect(changes.every((change) => change.what_to_do.length > 0)).toBe(true);
    });

    it('compares milestones numerically and returns an empty report for equal ones', async () => {
      const numeric = await getJson<UpgradeReport>('/deprecations/upgrade_report?from=15.10&to=16.0');
      expect(numeric.body.milestones.map((group) => group.milestone)).toEqual(['16.0']);
      expect((await getJson<UpgradeReport>('/deprecations/upgrade_report?from=15.0&to=15.0')).body).toEqual({ from: '15.0', to: '15.0', milestones: [] });
    });

    it.each([
      ['?from=16.0&to=15.0', 'invalid_range'],
      ['?from=15.10&to=15.9', 'invalid_range'],
      ['?from=15&to=16.0', 'invalid_milestone'],
      ['?to=16.0', 'invalid_range'],
    ])('answers %s with 400', async (query, error) => {
      const { status, body } = await getJson<ErrorBody>(`/deprecations/upgrade_report${query}`);
      expect(status).toBe(400);
      expect(body).toEqual({ error, message: expect.any(String) });
    });
  });

  describe('POST /deprecations/check', () => {
    const PIPELINE = 'types: [build]\nbuild:\n  script: echo $CI_BUILD_REF\n';

    it('checks a raw text/yaml body', async () => {
      const { status, body } = await check(PIPELINE, 'text/yaml');
      expect(status).toBe(200);
      expect(body).toEqual({
        findings: [
          {
            rule: 'type_keywords',
            line: 1,
            message: expect.any(String),
            removal_milestone: '15.0',
            replacement: 'stages',
            deprecation_id: 'type-and-types-keywords',
          },
          {
            rule: 'ci_build_variables',
            line: 3,
            message: expect.any(String),
            removal_milestone: '16.0',
            replacement: 'CI_COMMIT_SHA',
            deprecation_id: 'ci-build-predefined-variables',
          },
        ],
      });
    });

    it('checks JSON {content} the same way, and honours target', async () => {
      const json = await check(JSON.stringify({ content: PIPELINE }), 'application/json', '?target=15.0');
      expect(json.status).toBe(200);
      expect(json.body.findings.map((finding) => finding.rule)).toEqual(['type_keywords']);
      const yaml = await check(PIPELINE, 'application/x-yaml; charset=utf-8', '?target=15.0');
      expect(yaml.body).toEqual(json.body);
    });

    it('returns no findings for a clean file', async () => {
      expect(await check('stages: [build]\nbuild:\n  stage: build\n  script: echo $CI_COMMIT_SHA\n', 'text/yaml')).toEqual({ status: 200, body: { findings: [] } });
    });

    it('answers invalid YAML with 400 and the parser line', async () => {
      const { status, body } = await check('build:\n  script: [unclosed\ntest:\n  script: x\n', 'text/yaml');
      expect(status).toBe(400);
      expect(body.error).toBe('invalid_yaml');
      expect(body.message).toMatch(/^Invalid YAML at line \d+, column \d+: /);
    });

    it.each([
      ['a malformed target', PIPELINE, 'text/yaml', '?target=sixteen', 'invalid_milestone'],
      ['an unknown parameter', PIPELINE, 'text/yaml', '?milestone=16.0', 'invalid_query'],
      ['JSON without content', '{"yaml": "a: 1"}', 'application/json', '', 'invalid_request'],
      ['an empty body', '', 'text/yaml', '', 'invalid_request'],
    ])('answers %s with 400', async (_, body, contentType, query, error) => {
      const response = await check(body, contentType, query);
      expect(response).toEqual({ status: 400, body: { error, message: expect.any(String) } });
    });

    describe('?format=codequality', () => {
      const codeQuality = async (body: string, query: string, contentType = 'text/yaml') => {
        const response = await fetch(`${base}/deprecations/check${query}`, { method: 'POST', headers: { 'Content-Type': contentType }, body });
        return { status: response.status, body: (await response.json()) as CodeQualityIssue[] & ErrorBody };
      };

      it('answers a GitLab Code Quality report at the given path, critical for what the target removes', async () => {
        const { status, body } = await codeQuality(PIPELINE, '?target=16.0&format=codequality&path=ci/build.yml');
        expect(status).toBe(200);
        expect(body).toEqual([
          {
            description: 'The types keyword is removed in 15.0 (spec 9.4); use stages.',
            check_name: 'type_keywords',
            fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
            severity: 'critical',
            location: { path: 'ci/build.yml', lines: { begin: 1 } },
          },
          {
            description: 'CI_BUILD_REF is removed in 16.0 (spec 9.5); use CI_COMMIT_SHA.',
            check_name: 'ci_build_variables',
            fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/),
            severity: 'critical',
            location: { path: 'ci/build.yml', lines: { begin: 3 } },
          },
        ]);
      });

      it('names .gitlab-ci.yml by default, filters by target as {findings} does, and takes JSON {content} too', async () => {
        const { body } = await codeQuality(JSON.stringify({ content: PIPELINE }), '?target=15.0&format=codequality', 'application/json');
        expect(body.map((issue) => [issue.check_name, issue.severity, issue.location.path])).toEqual([['type_keywords', 'critical', '.gitlab-ci.yml']]);
        expect((await codeQuality('build:\n  script: echo $CI_COMMIT_SHA\n', '?format=codequality')).body).toEqual([]);
      });

      it('gives the same fingerprints on every request and when lines are inserted above', async () => {
        const fingerprints = async (yaml: string) => (await codeQuality(yaml, '?format=codequality')).body.map((issue) => issue.fingerprint);
        const first = await fingerprints(PIPELINE);
        expect(new Set(first).size).toBe(2);
        expect(await fingerprints(PIPELINE)).toEqual(first);
        expect(await fingerprints(`# notes\nlint:\n  script: npm run lint\n${PIPELINE}`)).toEqual(first);
      });

      it.each([
        ['an unknown format', '?format=sarif', 'invalid_query', 'format must be one of json, codequality, got "sarif"'],
        ['an absolute path', '?format=codequality&path=/builds/project/.gitlab-ci.yml', 'invalid_query', 'path must be a file path relative to the repository root'],
        ['a path leaving the repository', '?format=codequality&path=../.gitlab-ci.yml', 'invalid_query', 'path must be a file path relative to the repository root'],
      ])('answers %s with 400 {error, message}', async (_, query, error, message) => {
        const response = await codeQuality(PIPELINE, query);
        expect(response).toEqual({ status: 400, body: { error, message: expect.stringContaining(message) } });
      });

      it('answers invalid YAML with the same 400 as the default format', async () => {
        const { status, body } = await codeQuality('a: [\n', '?format=codequality');
        expect(status).toBe(400);
        expect(body.error).toBe('invalid_yaml');
      });
    });

    it('answers a body over 1 MiB with 413', async () => {
      const response = await check(`# ${'x'.repeat(1024 * 1024)}\n`, 'text/yaml');
      expect(response.status).toBe(413);
      expect(response.body).toEqual({ error: 'payload_too_large', message: expect.any(String) });
    });
  });

  it('GET /alert_integrations/feature_history lists the receiver features of spec 9.1', async () => {
    const { status, body } = await getJson<ReceiverFeature[]>('/alert_integrations/feature_history');
    expect(status).toBe(200);
    expect(body).toHaveLength(9);
    expect(body[0]).toEqual({
      id: 'alerts-integrations',
      feature: 'Alerts integrations (generic receiver)',
      introduced_in: '12.4',
      changes: [{ milestone: '12.8', kind: 'tier_change', change: 'Moved to the free tier.' }],
    });
  });
});

describe('deprecation catalogue at start-up', () => {
  let directory: string;

  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'deprecation-catalogue-'));
    cpSync(locateCatalogue().catalogueDirectory, directory, { recursive: true });
  });

  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('fails to start with the file and field of a malformed entry', async () => {
    const file = join(directory, '16.0.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('removal_milestone: "16.0"', 'removal_milestone: 16.0'));
    const starting = Test.createTestingModule({
      imports: [DeprecationsModule.forRoot({ catalogueDirectory: directory })],
      controllers: [DeprecationsController, FeatureHistoryController],
    }).compile();
    await expect(starting).rejects.toThrow(CatalogueError);
    await expect(starting).rejects.toThrow(`${file}:7: defaults.removal_milestone: must be a quoted milestone`);
  });

  it('starts over a valid copy of the catalogue', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [DeprecationsModule.forRoot({ catalogueDirectory: directory })] }).compile();
    await moduleRef.close();
  });
});
