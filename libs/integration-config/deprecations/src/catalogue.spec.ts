import { loadDeprecationCatalogue } from './catalogue-loader';
import { createPipelineChecker } from './pipeline-check/pipeline-checker';

/**
 * The spec's tables, row by row ("Item" column; a date written in it is the entry's planned_date).
 * If a row is dropped, renamed or duplicated in the catalogue, this fails.
 */
const SPEC_TABLES: Record<string, readonly string[]> = {
  '9.3': [
    'Release CLI binary distribution via object storage',
    'Task Runner pod and sub-chart name',
    'Configurable per_repository election strategy of the repository storage service',
    'Community Leap distribution 15.2 packages',
    'Downloading package-manager dependencies without authentication',
    'Community distribution release 9 packages',
    'Bundled dashboard tool swapped for a maintained fork',
    'Vulnerability Report sort by Tool and by State (feature flag)',
    'SAST analyzer consolidation',
    'Key-value store version 5',
    'File-share storage (NFS) for repositories',
    'SaaS certificate-based container-orchestrator integration',
  ],
  '9.4 Interface and API changes': [
    'Status-check external API',
    'GraphQL ID compatibility',
    'instanceStatisticsMeasurements node',
    'started field in iterations API',
    'merged_by field in merge request API',
    'user_email_lookup_limit API field',
    'Legacy approval names in the license compliance API',
    'Container registry group-level API',
    'Version on base PackageType',
    'pipelines field of the versions field',
    'defaultMergeCommitMessageWithDescription GraphQL field',
    'apiFuzzingCiConfigurationCreate mutation',
    'projectFingerprint in PipelineSecurityReportFinding',
    'Geo admin legacy routes /admin/geo/projects and /admin/geo/designs',
    'Package settings GraphQL permissions',
    'Repository push audit events',
    'Request profiling',
    'Test coverage project setting',
    'Value stream analytics date filter',
  ],
  '9.4 CI/CD configuration': [
    'type and types keywords',
    'CI/CD job names',
    'artifacts:reports:cobertura',
    'Required pipeline configurations',
    'Secret detection variables SECRET_DETECTION_COMMIT_FROM, SECRET_DETECTION_COMMIT_TO, SECRET_DETECTION_COMMITS, SECRET_DETECTION_COMMITS_FILE, SECRET_DETECTION_ENTROPY_LEVEL',
    'Analyzer image location',
    'Analyzer major versions',
    'Dependency scanning default Java version',
    'SAST Java analyzer image',
    'SAST .NET analyzer',
    'Dependency scanning Python images',
    'Retire-JS and bundler-audit jobs',
    'Security report schemas',
    'Vulnerability check',
    'Push rules supersede CODEOWNERS',
    'Runner SSH executor',
    'Instance runner to project runner',
  ],
  '9.4 Administration and deployment': [
    'Background upload for object storage',
    'Pages daemon mode',
    'custom_hooks_dir',
    'Registry htpasswd authentication',
    'Legacy repository storage configuration via environment variables GIT_CONFIG_SYSTEM and GIT_CONFIG_GLOBAL',
    'Search engine 6.8',
    'gRPC-aware proxy between repository storage service and the rest',
    'Legacy database configuration',
    'Sidekiq-style metrics and health checks',
    'Geo rake tasks geo:db:*',
    'Single-node failover commands promote-db and promote-to-primary-node',
    'Optional enforcement of personal access token expiration and SSH key expiration',
    'OAuth tokens without expiration',
    'OAuth implicit grant',
    'Password-based Kerberos provider gem',
    'dependency_proxy_for_private_groups feature flag',
    'Container network and host security',
    'Serverless, Logging, Tracing, Pseudonymizer, Static Site Editor',
    'Outdated search index migrations',
    'Environment-specific support',
    'Certificate-based cluster integration (SaaS new namespaces)',
  ],
  '9.5': [
    'Container Scanning variables DOCKER_IMAGE, DOCKER_PASSWORD, DOCKER_USER, DOCKERFILE_PATH (and any DOCKER_ prefixed)',
    'Access tokens without expiration (personal, project, group)',
    'Cluster agent config starboard: directive',
    '/draft quick action',
    'confidence attribute on vulnerability findings in GraphQL',
    'Security report schemas 14.x.x',
    'vulnerabilityFindingDismiss mutation',
    'Directory-service and single-sign-on provider gems (two providers)',
    'ci_active_pipelines limit',
    'job_age parameter of POST /jobs/request',
    'Issue-tracker DVCS connector',
    'PipelineSecurityReportFinding name field',
    'PipelineSecurityReportFinding projectFingerprint',
    'maintainer_note argument of POST /runners',
    'project.pipeline.securityReportFindings query',
    'CiCdSettingsUpdate mutation',
    'legacyMode argument of RunnerType status field',
    'Relational database 12',
    'Toggle of note confidentiality via REST and GraphQL',
    'Self-monitoring project',
    'Runner REST status filter values active and paused',
    'GET /groups/:id/runners?type=project_type',
    'active identifier in runner REST and GraphQL APIs',
    'Runner status values paused and active returned',
    'CI_BUILD_* predefined variables',
    'pipelines attribute of /api/v4/projects/:id/packages',
    'Metrics through a metrics server',
  ],
  '9.6': ['Self-managed certificate-based cluster integration'],
};

const catalogue = loadDeprecationCatalogue();

describe('the deprecation catalogue against the spec', () => {
  it.each(Object.entries(SPEC_TABLES))('holds every row of %s, once, in the spec order', (section, titles) => {
    const entries = catalogue.entries.filter((entry) => entry.spec_section === section);
    expect(entries.map((entry) => entry.title)).toEqual(titles);
  });

  it('counts 12 + 19 + 17 + 21 + 27 + 1 = 97 scheduled items and nothing from elsewhere', () => {
    expect(Object.values(SPEC_TABLES).map((titles) => titles.length)).toEqual([12, 19, 17, 21, 27, 1]);
    expect(catalogue.entries).toHaveLength(97);
  });

  it('schedules the 9.4 tables at 15.0, 9.5 at 16.0 and 9.6 at 17.0, with the stated dates', () => {
    const bySection = (prefix: string) => catalogue.entries.filter((entry) => entry.spec_section.startsWith(prefix));
    expect(new Set(bySection('9.4').map((entry) => entry.removal_milestone))).toEqual(new Set(['15.0']));
    expect(new Set(bySection('9.5').map((entry) => entry.removal_milestone))).toEqual(new Set(['16.0']));
    expect(bySection('9.6').map((entry) => [entry.removal_milestone, entry.planned_date])).toEqual([['17.0', '2024-05-22']]);
    const dateOf = (title: string) => catalogue.entries.find((entry) => entry.title === title)?.planned_date;
    expect(dateOf('GraphQL ID compatibility')).toBe('2022-04-22');
    expect(dateOf('CI_BUILD_* predefined variables')).toBe('2023-04-22');
    expect(dateOf('/draft quick action')).toBe('2022-05-22');
    expect(dateOf('Metrics through a metrics server')).toBe('2023-05-22');
    expect(dateOf('Request profiling')).toBe('2022-05-22');
  });

  it('keeps the two-milestone rows of 9.3 and 9.5 as stages', () => {
    const stagesOf = (id: string) => catalogue.entries.find((entry) => entry.id === id)?.other_milestones.map((stage) => stage.milestone);
    expect(stagesOf('package-manager-dependencies-without-authentication')).toEqual(['15.0']);
    expect(stagesOf('key-value-store-version-5')).toEqual(['15.6']);
    expect(stagesOf('runner-status-legacy-mode-argument')).toEqual(['17.0']);
    expect(stagesOf('self-managed-certificate-based-cluster-integration')).toEqual(['15.0']);
  });

  it('maps every CI_BUILD_* variable to its exact replacement from 9.5, in the spec order', () => {
    const entry = catalogue.entries.find((candidate) => candidate.id === 'ci-build-predefined-variables');
    expect(entry?.identifiers.map((identifier) => `${identifier.name}=${identifier.replacement}`)).toEqual([
      'CI_BUILD_BEFORE_SHA=CI_COMMIT_BEFORE_SHA',
      'CI_BUILD_ID=CI_JOB_ID',
      'CI_BUILD_MANUAL=CI_JOB_MANUAL',
      'CI_BUILD_NAME=CI_JOB_NAME',
      'CI_BUILD_REF=CI_COMMIT_SHA',
      'CI_BUILD_REF_NAME=CI_COMMIT_REF_NAME',
      'CI_BUILD_REF_SLUG=CI_COMMIT_REF_SLUG',
      'CI_BUILD_REPO=CI_REPOSITORY_URL',
      'CI_BUILD_STAGE=CI_JOB_STAGE',
      'CI_BUILD_TAG=CI_COMMIT_TAG',
      'CI_BUILD_TOKEN=CI_JOB_TOKEN',
      'CI_BUILD_TRIGGERED=CI_PIPELINE_TRIGGERED',
    ]);
  });

  it('holds the three rules of the 9.2 policy and the nine features of the 9.1 history', () => {
    expect(catalogue.policy.rules).toHaveLength(3);
    expect(catalogue.feature_history.map((feature) => [feature.feature, feature.introduced_in])).toEqual([
      ['Alerts integrations (generic receiver)', '12.4'],
      ['Test alerts', '13.2'],
      ['Grouping of identical alerts', '13.2'],
      ['External link integration', '13.2'],
      ['Recovery alerts (end_time)', '13.4'],
      ['Integrations list', '13.5'],
      ['Multiple HTTP endpoints (Premium)', '13.6'],
      ['Custom field mapping', '13.10'],
      ['Response body listing created alerts', '14.5'],
    ]);
    const externalLink = catalogue.feature_history.find((feature) => feature.id === 'external-link-integration');
    expect(externalLink?.changes).toEqual([expect.objectContaining({ milestone: '13.8', kind: 'deprecation' })]);
  });

  it('gives every entry a unique, milestone-free id (planned dates may slip, spec 9.2)', () => {
    const ids = catalogue.entries.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => /^\d+-\d+-/.test(id) || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id))).toEqual([]);
  });

  it('binds every checker rule to an entry that has what the rule reads', () => {
    expect(() => createPipelineChecker(catalogue)).not.toThrow();
  });
});
