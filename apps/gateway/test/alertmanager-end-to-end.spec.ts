import { RunningAlertmanager, startAlertmanager } from '@alert-ingestion/alertmanager';
import { findRepoRoot } from '@alert-ingestion/local-infra';
import { eventually } from '@alert-ingestion/testing';
import { Pipeline, Project } from './support/pipeline';

/**
 * A real Prometheus Alertmanager (Debian package prometheus-alertmanager, fetched and unpacked by
 * tools/alertmanager without installing it) posts its webhook notifications to an integration URL
 * with bearer credentials: the firing notification creates an alert, the resolved one resolves it.
 */
describe('end to end: Prometheus Alertmanager -> gateway -> processor', () => {
  let pipeline: Pipeline;
  let project: Project;
  let alertmanager: RunningAlertmanager;

  beforeAll(async () => {
    pipeline = await Pipeline.start();
    project = await pipeline.createProject('free');
    alertmanager = await startAlertmanager({
      repoRoot: findRepoRoot(__dirname),
      webhookUrl: project.integration.url,
      bearerCredentials: project.integration.authorization_key,
      groupWait: '1s',
      groupInterval: '1s',
      resolveTimeout: '5m',
    });
  }, 180_000);

  afterAll(async () => {
    await alertmanager?.stop();
    await pipeline?.stop();
  }, 60_000);

  it('creates an alert from the firing notification and resolves it from the resolved one', async () => {
    const startsAt = new Date(Date.now() - 60_000).toISOString();
    const alert = {
      labels: { alertname: 'HighRequestLatency', severity: 'warning', instance: 'api-1:9090', job: 'api' },
      annotations: { summary: 'Request latency above 500 ms on api-1', description: 'p99 latency has been above 500 ms for 10 minutes.' },
      startsAt,
      generatorURL: 'http://prometheus.example/graph?g0.expr=latency',
    };
    await alertmanager.postAlerts([alert]);

    let iid = 0;
    await eventually(async () => {
      const alerts = await pipeline.alerts(project.id);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatchObject({ title: 'Request latency above 500 ms on api-1', severity: 'medium', status: 'triggered', events: 1 });
      iid = alerts[0].iid;
    }, 30_000, 200).catch((error: unknown) => {
      throw new Error(`${String(error)}\n--- Alertmanager output ---\n${alertmanager.output()}`);
    });
    expect(Date.parse((await pipeline.alerts(project.id))[0].started_at)).toBe(Date.parse(startsAt));

    const endsAt = new Date().toISOString();
    await alertmanager.postAlerts([{ ...alert, endsAt }]);
    await eventually(async () => {
      const alerts = await pipeline.alerts(project.id);
      expect(alerts).toHaveLength(1);
      expect(alerts[0]).toMatchObject({ iid, status: 'resolved' });
      expect(alerts[0].ended_at).not.toBeNull();
    }, 30_000, 200).catch((error: unknown) => {
      throw new Error(`${String(error)}\n--- Alertmanager output ---\n${alertmanager.output()}`);
    });
    // Alertmanager sent the notifications with our credentials and got a success answer.
    expect(alertmanager.output()).toMatch(/Notify success/);
  });
});
