import { KafkaNames } from '@alert-ingestion/kafka';
import { BaseEnv, loadConfig } from '@alert-ingestion/config';
import { Topic, TOPIC_SPECS } from '@alert-ingestion/contracts';
import { shutdownDrainLimitMs } from '@alert-ingestion/gateway-feature';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import type { IService } from 'kubernetes-models/v1/Service';
import type { IScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import type { IPrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import type { IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { AlertProcessorEnv } from '../../../apps/alert-processor/src/alert-processor.env';
import { GatewayEnv } from '../../../apps/gateway/src/gateway.env';
import { IntegrationConfigEnv } from '../../../apps/integration-config/src/integration-config.env';
import { buildKustomization, KubernetesObject, objectName, parseManifests } from './support/kustomize';
import { lookUpSeries, TARGET_LABELS } from './support/metric-catalogue';
import { seriesSelectors } from './support/promql';
import { SchemaViolation, validateAgainstSchema } from './support/schema-validation';

const repositoryRoot = join(__dirname, '..', '..', '..');
const k8sRoot = join(repositoryRoot, 'deploy', 'k8s');

/** The Secret every environment creates (docs/operating.md "Deploying to Kubernetes"); true = optional. */
const SECRET_NAME = 'alert-ingestion';
const SECRET_KEYS: Readonly<Record<string, boolean>> = {
  DATABASE_URL: false,
  ADMIN_TOKEN: false,
  INTEGRATION_KEY_ENCRYPTION_KEY: false,
  REDIS_URL: true,
  SMTP_URL: true,
};

/**
 * Variables the manifests set ahead of the services reading them (none at the moment). Once a
 * service's env class reads one, it is checked like every other.
 */
const ANNOUNCED: Readonly<Record<string, readonly string[]>> = {};

/** Settings whose Kubernetes value differs from the code's default on purpose (the rest keep it). */
const DEPLOYMENT_SETTINGS = new Set([
  'NODE_ENV',
  'KAFKA_BROKERS',
  'KAFKA_CLIENT_ID',
  'GATEWAY_PUBLIC_URL',
  'GATEWAY_INTERNAL_URL',
  'ALERT_PROCESSOR_URL',
  'LOG_FORMAT',
  'GATEWAY_REPLY_HOST',
  'CONSOLE_URL',
]);

/** What a field of the downward API stands for when the manifests are rendered (no pod runs). */
const EXAMPLE_FIELDS: Readonly<Record<string, string>> = { 'status.podIP': '10.42.0.17' };

/** The consumer group of RawAlertConsumer (ConsumerGroup.AlertProcessor), before KAFKA_TOPIC_PREFIX. */
const PROCESSOR_CONSUMER_GROUP = 'alert-processor';

/** Time a service may take after its graceful shutdown to close Kafka and database connections. */
const DISCONNECT_SECONDS = 5;

interface Workload {
  kind: 'Deployment' | 'Job';
  name: string;
  /** deploy/Dockerfile target whose image it runs (also the container's name for services). */
  target: string;
  /** The class its process validates its environment with. */
  env: new () => object;
  /** Variables of that class deliberately not given, and why. */
  notGiven: Readonly<Record<string, string>>;
  /** Longest graceful shutdown after SIGTERM, in seconds, under the configured environment. */
  shutdownSeconds?: (config: Record<string, unknown>) => number;
}

const WORKLOADS: readonly Workload[] = [
  {
    kind: 'Deployment',
    name: 'gateway',
    target: 'gateway',
    env: GatewayEnv,
    notGiven: {
      DATABASE_URL: 'BaseEnv reads it, but the gateway has no database: no credentials for it',
      INTEGRATION_KEY_ENCRYPTION_KEY_FILE: 'only read when INTEGRATION_KEY_ENCRYPTION_KEY is unset, which production refuses',
      GATEWAY_REPLY_BIND_HOST: 'the pod IP is an address of the pod: the reply listener binds to GATEWAY_REPLY_HOST itself',
    },
    shutdownSeconds: (config) => shutdownDrainLimitMs(Number(config['GATEWAY_REPLY_TIMEOUT_MS'])) / 1000 + DISCONNECT_SECONDS,
  },
  {
    kind: 'Deployment',
    name: 'alert-processor',
    target: 'alert-processor',
    env: AlertProcessorEnv,
    notGiven: {
      HEARTBEAT_MINUTE_MS: 'for tests only: a real deployment keeps the minute',
      ESCALATION_MINUTE_MS: 'for tests only: a real deployment keeps the minute',
    },
    // The chunk in flight waits at most INTEGRATION_LOOKUP_TIMEOUT_MS for an integration; the group
    // gives up on a silent member after PROCESSOR_SESSION_TIMEOUT_MS.
    shutdownSeconds: (config) => (Number(config['INTEGRATION_LOOKUP_TIMEOUT_MS']) + Number(config['PROCESSOR_SESSION_TIMEOUT_MS'])) / 1000 + DISCONNECT_SECONDS,
  },
  {
    kind: 'Deployment',
    name: 'integration-config',
    target: 'integration-config',
    env: IntegrationConfigEnv,
    notGiven: {
      INTEGRATION_KEY_ENCRYPTION_KEY_FILE: 'only read when INTEGRATION_KEY_ENCRYPTION_KEY is unset, which production refuses',
      HEARTBEAT_MINUTE_MS: 'for tests only: a real deployment keeps the minute',
    },
    // The longest request in flight is a test alert.
    shutdownSeconds: (config) => Number(config['TEST_ALERT_TIMEOUT_MS']) / 1000 + DISCONNECT_SECONDS,
  },
  {
    kind: 'Job',
    name: 'alert-ingestion-migrate',
    target: 'migrate',
    env: BaseEnv,
    notGiven: { PORT: 'the migration serves no HTTP' },
  },
];

type EnvironmentEntry =
  | { source: 'value' | 'configMap'; value: string }
  | { source: 'field'; fieldPath: string; value: string }
  | { source: 'secret'; secret: string; key: string; optional: boolean };

class Rendering {
  constructor(readonly objects: KubernetesObject[]) {}

  all<T>(kind: string): (KubernetesObject & T)[] {
    return this.objects.filter((object) => object.kind === kind) as (KubernetesObject & T)[];
  }

  one<T>(kind: string, name: string): KubernetesObject & T {
    const found = this.all<T>(kind).filter((object) => object.metadata.name === name);
    if (found.length !== 1) throw new Error(`expected one ${kind}/${name}, found ${found.length}`);
    return found[0]!;
  }

  podSpec(workload: Workload): IPodSpec {
    const object = this.one<IDeployment | IJob>(workload.kind, workload.name);
    return object.spec!.template.spec!;
  }

  container(workload: Workload): IContainer {
    const containers = this.podSpec(workload).containers;
    expect(containers.map((container) => container.name)).toEqual([workload.target]);
    return containers[0]!;
  }

  /** The container's environment as Kubernetes builds it: envFrom first, env entries override. */
  environment(workload: Workload): Map<string, EnvironmentEntry> {
    const container = this.container(workload);
    const environment = new Map<string, EnvironmentEntry>();
    for (const source of container.envFrom ?? []) {
      if (!source.configMapRef) throw new Error(`${workload.name}: envFrom only takes ConfigMaps; Secrets are referenced key by key`);
      const configMap = this.one<IConfigMap>('ConfigMap', source.configMapRef.name!);
      for (const [key, value] of Object.entries(configMap.data ?? {})) environment.set(key, { source: 'configMap', value });
    }
    for (const variable of container.env ?? []) {
      if (variable.value !== undefined) {
        environment.set(variable.name, { source: 'value', value: variable.value });
      } else if (variable.valueFrom?.secretKeyRef) {
        const ref = variable.valueFrom.secretKeyRef;
        environment.set(variable.name, { source: 'secret', secret: ref.name!, key: ref.key, optional: ref.optional ?? false });
      } else if (variable.valueFrom?.fieldRef) {
        const fieldPath = variable.valueFrom.fieldRef.fieldPath;
        const value = EXAMPLE_FIELDS[fieldPath];
        if (value === undefined) throw new Error(`${workload.name}: ${variable.name} comes from the field ${fieldPath}, which has no example value here`);
        environment.set(variable.name, { source: 'field', fieldPath, value });
      } else if (variable.valueFrom?.configMapKeyRef) {
        const ref = variable.valueFrom.configMapKeyRef;
        const value = this.one<IConfigMap>('ConfigMap', ref.name!).data?.[ref.key];
        if (value === undefined) throw new Error(`${workload.name}: ${variable.name} refers to a missing key ${ref.name}.${ref.key}`);
        environment.set(variable.name, { source: 'configMap', value });
      } else {
        throw new Error(`${workload.name}: ${variable.name} has neither a value nor a ConfigMap or Secret reference`);
      }
    }
    return environment;
  }

  /** The workload's configuration as its process loads it (the env class's own validation). */
  config(workload: Workload): Record<string, unknown> {
    const plain: Record<string, string> = {};
    for (const [name, entry] of this.environment(workload)) if (entry.source !== 'secret') plain[name] = entry.value;
    return loadConfig(workload.env, plain) as Record<string, unknown>;
  }
}

function render(directory: string): Rendering {
  return new Rendering(buildKustomization(join(k8sRoot, directory)));
}

function toleratedSeconds(probe: IProbe | undefined): number {
  return (probe?.periodSeconds ?? 10) * (probe?.failureThreshold ?? 3);
}

function preStopSleepSeconds(container: IContainer): number {
  const preStop = container.lifecycle?.preStop;
  if (preStop?.sleep) return preStop.sleep.seconds;
  const command = preStop?.exec?.command ?? [];
  if (command.length === 2 && command[0] === 'sleep' && /^\d+$/.test(command[1]!)) return Number(command[1]);
  throw new Error(`${container.name}: no preStop sleep`);
}

function matches(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined): boolean {
  const entries = Object.entries(selector ?? {});
  return entries.length > 0 && entries.every(([key, value]) => labels?.[key] === value);
}

function dockerfileTargets(): Set<string> {
  const dockerfile = readFileSync(join(repositoryRoot, 'deploy', 'Dockerfile'), 'utf8');
  return new Set([...dockerfile.matchAll(/^FROM runtime AS (\S+)$/gm)].map((match) => match[1]!));
}

/** Every PromQL expression of the PrometheusRules and of the dashboard, with where it comes from. */
function promqlExpressions(rendering: Rendering): { where: string; expr: string }[] {
  const fromRules = rendering.all<IPrometheusRule>('PrometheusRule').flatMap((rule) =>
    (rule.spec?.groups ?? []).flatMap((group) =>
      (group.rules ?? []).map((entry) => ({ where: `${objectName(rule)} ${entry.alert ?? entry.record}`, expr: String(entry.expr) })),
    ),
  );
  const dashboard = JSON.parse(readFileSync(join(k8sRoot, 'base', 'monitoring', 'alert-ingestion-dashboard.json'), 'utf8')) as {
    panels: { title: string; targets?: { expr: string }[] }[];
  };
  const fromDashboard = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: `dashboard panel "${panel.title}"`, expr: target.expr })));
  return [...fromRules, ...fromDashboard];
}

describe('the schema validation', () => {
  const gateway = (): KubernetesObject => structuredClone(render('base').one<IDeployment>('Deployment', 'gateway'));

  it('accepts a valid object and rejects invalid ones of every kind it knows', () => {
    expect(() => validateAgainstSchema(gateway())).not.toThrow();

    const portByName = gateway() as KubernetesObject & IDeployment;
    (portByName.spec!.template.spec!.containers[0]!.ports![0] as { containerPort: unknown }).containerPort = 'http';
    expect(() => validateAgainstSchema(portByName)).toThrow(/containerPort must be integer/);

    const noContainers = gateway() as KubernetesObject & IDeployment;
    delete (noContainers.spec!.template.spec as { containers?: unknown }).containers;
    expect(() => validateAgainstSchema(noContainers)).toThrow(/must have required property containers/);

    const scaledObject = { apiVersion: 'keda.sh/v1alpha1', kind: 'ScaledObject', metadata: { name: 'x' }, spec: { scaleTargetRef: { name: 'x' }, maxReplicaCount: '12', triggers: [] } };
    expect(() => validateAgainstSchema(scaledObject)).toThrow(/maxReplicaCount must be integer/);

    const rule = { apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule', metadata: { name: 'x' }, spec: { groups: [{ name: 'g', rules: [{ alert: 'A' }] }] } };
    expect(() => validateAgainstSchema(rule)).toThrow(/must have required property expr/);

    const serviceMonitor = { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { name: 'x' }, spec: { endpoints: [{ port: 'http' }] } };
    expect(() => validateAgainstSchema(serviceMonitor)).toThrow(/must have required property selector/);

    expect(() => validateAgainstSchema({ apiVersion: 'apps/v1beta1', kind: 'Deployment', metadata: { name: 'x' } })).toThrow(SchemaViolation);
  });

  it('refuses YAML that does not parse and a kustomization that does not build', () => {
    expect(() => parseManifests('kind: Service\n  metadata: [')).toThrow(/Invalid YAML/);
    expect(() => buildKustomization(join(k8sRoot, 'no-such-overlay'))).toThrow(/kustomize build .* failed/);
  });

  it('finds the metric names of PromQL expressions and refuses a syntax error', () => {
    expect(seriesSelectors('sum by (le) (rate(a_bucket{x="1", y=~"2"}[$__rate_interval])) / on() b')).toEqual([
      { series: 'a_bucket', labels: ['x', 'y'] },
      { series: 'b', labels: [] },
    ]);
    expect(() => seriesSelectors('sum(rate(a[5m])')).toThrow(/PromQL syntax error/);
  });
});

describe.each(['base', 'overlays/example'])('deploy/k8s/%s', (directory) => {
  let rendering: Rendering;

  beforeAll(() => {
    rendering = render(directory);
  });

  it('builds, and every object is valid against the Kubernetes and CRD schemas', () => {
    expect(rendering.objects.length).toBeGreaterThan(0);
    const violations: string[] = [];
    for (const object of rendering.objects) {
      try {
        validateAgainstSchema(object);
      } catch (error) {
        violations.push((error as Error).message);
      }
    }
    expect(violations).toEqual([]);
  });

  it.each(WORKLOADS.map((workload) => [workload.name, workload] as const))('%s runs its Dockerfile target as non-root with a read-only root file system', (_, workload) => {
    const pod = rendering.podSpec(workload);
    const container = rendering.container(workload);
    expect(dockerfileTargets()).toContain(workload.target);
    expect(container.image!.replace(/[:@].*$/, '').split('/').pop()).toBe(workload.target);

    expect(pod.securityContext?.runAsNonRoot).toBe(true);
    expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    expect(container.securityContext?.capabilities?.drop).toContain('ALL');
    // Node.js and its libraries may write temporary files: /tmp is an emptyDir.
    const tmp = container.volumeMounts?.find((mount) => mount.mountPath === '/tmp');
    expect(pod.volumes?.find((volume) => volume.name === tmp?.name)?.emptyDir).toBeDefined();

    for (const resource of ['cpu', 'memory']) {
      expect(container.resources?.requests?.[resource]).toBeDefined();
      expect(container.resources?.limits?.[resource]).toBeDefined();
    }
  });

  const services = WORKLOADS.filter((workload) => workload.kind === 'Deployment').map((workload) => [workload.name, workload] as const);

  it.each(services)('%s probes /healthz on its http port, liveness more tolerant than readiness', (_, workload) => {
    const container = rendering.container(workload);
    const port = Number(rendering.config(workload)['PORT']);
    expect(container.ports).toContainEqual(expect.objectContaining({ name: 'http', containerPort: port }));
    for (const probe of [container.startupProbe, container.readinessProbe, container.livenessProbe]) {
      expect(probe?.httpGet).toMatchObject({ path: '/healthz', port: 'http' });
    }
    // /healthz is 503 while PostgreSQL or Kafka does not answer: out of the Service quickly, but no
    // restart for a broker blip.
    expect(toleratedSeconds(container.livenessProbe)).toBeGreaterThan(toleratedSeconds(container.readinessProbe));
    expect(toleratedSeconds(container.livenessProbe)).toBeGreaterThanOrEqual(60);
  });

  it.each(services)('%s has a grace period longer than its preStop sleep and graceful shutdown', (_, workload) => {
    const grace = rendering.podSpec(workload).terminationGracePeriodSeconds ?? 30;
    const preStop = preStopSleepSeconds(rendering.container(workload));
    expect(preStop).toBeGreaterThan(0);
    expect(grace).toBeGreaterThan(preStop + workload.shutdownSeconds!(rendering.config(workload)));
  });

  it.each(WORKLOADS.map((workload) => [workload.name, workload] as const))('%s gets every variable its env class reads, and nothing else', (_, workload) => {
    const environment = rendering.environment(workload);
    const read = Object.keys(new workload.env());
    const missing = read.filter((name) => !environment.has(name) && !(name in workload.notGiven));
    expect(missing).toEqual([]);
    const unknown = [...environment.keys()].filter((name) => !read.includes(name) && !ANNOUNCED[name]?.includes(workload.name));
    expect(unknown).toEqual([]);
    for (const name of Object.keys(workload.notGiven)) expect(environment.has(name)).toBe(false);

    for (const [name, entry] of environment) {
      if (entry.source !== 'secret') continue;
      expect({ name, secret: entry.secret, key: entry.key, optional: entry.optional }).toEqual({ name, secret: SECRET_NAME, key: name, optional: SECRET_KEYS[name] });
    }
    // Valid for the service: its own validation accepts every value it is given.
    expect(() => rendering.config(workload)).not.toThrow();
  });

  it('runs the services with NODE_ENV=production and an empty topic prefix', () => {
    for (const workload of WORKLOADS) {
      expect(rendering.config(workload)).toMatchObject({ NODE_ENV: 'production', KAFKA_TOPIC_PREFIX: '' });
    }
  });

  it('routes each Service to its Deployment by the http port, and each PodDisruptionBudget covers one', () => {
    const deployments = rendering.all<IDeployment>('Deployment');
    for (const service of rendering.all<IService>('Service')) {
      const targets = deployments.filter((deployment) => matches(service.spec?.selector, deployment.spec?.template.metadata?.labels));
      expect({ service: service.metadata.name, targets: targets.map(objectName) }).toEqual({ service: service.metadata.name, targets: [`Deployment/${service.metadata.name}`] });
      expect(service.spec?.ports).toEqual([expect.objectContaining({ name: 'http', targetPort: 'http' })]);
    }
    const budgets = rendering.all<IPodDisruptionBudget>('PodDisruptionBudget');
    for (const deployment of deployments) {
      const covering = budgets.filter((budget) => matches(budget.spec?.selector?.matchLabels, deployment.spec?.template.metadata?.labels));
      expect({ deployment: deployment.metadata.name, budgets: covering.length }).toEqual({ deployment: deployment.metadata.name, budgets: 1 });
    }
  });

  it('scales the gateway on CPU and leaves the replica count of autoscaled Deployments to the autoscaler', () => {
    const hpa = rendering.one<IHorizontalPodAutoscaler>('HorizontalPodAutoscaler', 'gateway');
    expect(hpa.spec?.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'gateway' });
    expect(hpa.spec?.metrics).toContainEqual(expect.objectContaining({ type: 'Resource', resource: expect.objectContaining({ name: 'cpu' }) }));
    expect(rendering.one<IDeployment>('Deployment', 'gateway').spec?.replicas).toBeUndefined();
    expect(rendering.one<IDeployment>('Deployment', 'alert-processor').spec?.replicas).toBeUndefined();
  });

  it('scales the processors on their consumer lag, never beyond the partitions of alerts.raw.v1 nor below one', () => {
    const processor = WORKLOADS.find((workload) => workload.name === 'alert-processor')!;
    const config = rendering.config(processor);
    const prefix = String(config['KAFKA_TOPIC_PREFIX']);
    const partitions = TOPIC_SPECS.find((spec) => spec.topic === Topic.RawAlerts)!.partitions;

    const scaledObject = rendering.one<IScaledObject>('ScaledObject', 'alert-processor');
    const spec = scaledObject.spec!;
    expect(spec.scaleTargetRef.name).toBe('alert-processor');
    expect(spec.minReplicaCount).toBeGreaterThanOrEqual(1);
    expect(spec.maxReplicaCount).toBeGreaterThanOrEqual(spec.minReplicaCount!);
    expect(spec.maxReplicaCount).toBeLessThanOrEqual(partitions);

    expect(spec.triggers).toHaveLength(1);
    const trigger = spec.triggers[0]!;
    expect(trigger.type).toBe('kafka');
    expect(trigger.metadata).toMatchObject({ consumerGroup: `${prefix}${PROCESSOR_CONSUMER_GROUP}`, topic: new KafkaNames(prefix).topic(Topic.RawAlerts) });
    // KEDA reads the brokers from the processor container's environment: the same ConfigMap value.
    const fromEnv = trigger.metadata['bootstrapServersFromEnv'];
    const brokers = fromEnv === undefined ? trigger.metadata['bootstrapServers'] : (rendering.environment(processor).get(fromEnv) as { value?: string } | undefined)?.value;
    expect(brokers).toBe(config['KAFKA_BROKERS']);
  });

  it("gives the gateway's reply listener a port of its own, on no Service, reachable by the processors only, at the pod's IP", () => {
    const gateway = WORKLOADS.find((workload) => workload.name === 'gateway')!;
    const config = rendering.config(gateway);
    const container = rendering.container(gateway);
    expect(container.ports).toContainEqual(expect.objectContaining({ name: 'replies', containerPort: config['GATEWAY_REPLY_PORT'] }));
    expect(config['GATEWAY_REPLY_PORT']).not.toBe(config['PORT']);
    // The raw alerts name the pod that waits: its IP, from the downward API.
    expect(rendering.environment(gateway).get('GATEWAY_REPLY_HOST')).toMatchObject({ source: 'field', fieldPath: 'status.podIP' });
    for (const service of rendering.all<IService>('Service')) {
      expect(service.spec?.ports?.map((port) => port.targetPort)).not.toContain('replies');
    }

    const deployment = rendering.one<IDeployment>('Deployment', 'gateway');
    const processorLabels = rendering.one<IDeployment>('Deployment', 'alert-processor').spec?.template.metadata?.labels;
    const policies = rendering.all<INetworkPolicy>('NetworkPolicy').filter((policy) => matches(policy.spec?.podSelector.matchLabels, deployment.spec?.template.metadata?.labels));
    expect(policies.map(objectName)).toEqual(['NetworkPolicy/gateway']);
    const rules = policies[0]!.spec?.ingress ?? [];
    const reaching = (port: string) => rules.filter((rule) => rule.ports?.some((entry) => entry.port === port));
    // The reply port: from alert-processor pods only, in one rule that names them.
    expect(reaching('replies')).toHaveLength(1);
    const [replies] = reaching('replies');
    expect(replies!.from?.length).toBe(1);
    expect(replies!.from![0]!.namespaceSelector).toBeUndefined();
    expect(matches(replies!.from![0]!.podSelector?.matchLabels, processorLabels)).toBe(true);
    expect(replies!.from![0]!.podSelector?.matchLabels?.['app.kubernetes.io/name']).toBe('alert-processor');
    // The http port stays open to every caller (the receive route, Prometheus).
    expect(reaching('http')).toHaveLength(1);
    expect(reaching('http')[0]!.from).toBeUndefined();
  });

  it('scrapes every Service on its http port', () => {
    const monitors = rendering.all<IServiceMonitor>('ServiceMonitor');
    for (const service of rendering.all<IService>('Service')) {
      const monitor = monitors.find((candidate) => matches(candidate.spec.selector.matchLabels, service.metadata.labels));
      expect({ service: service.metadata.name, endpoints: monitor?.spec.endpoints }).toEqual({
        service: service.metadata.name,
        endpoints: [expect.objectContaining({ port: 'http', path: '/metrics' })],
      });
    }
  });

  it('alerts on relay backlog age, consumer lag, 5xx and 202 answers', () => {
    const alerts = rendering.all<IPrometheusRule>('PrometheusRule').flatMap((rule) => (rule.spec?.groups ?? []).flatMap((group) => group.rules ?? []));
    const alerting = (pattern: RegExp) => alerts.filter((rule) => rule.alert && pattern.test(String(rule.expr))).map((rule) => rule.alert);
    expect(alerting(/outbox_oldest_age_seconds/)).not.toEqual([]);
    expect(alerting(/alert_processor_consumer_lag_messages/)).not.toEqual([]);
    expect(alerting(/http_request_duration_seconds_count\{status_code=~"5\.\."\}/)).not.toEqual([]);
    expect(alerting(/gateway_receive_requests_total\{status="202"\}/)).not.toEqual([]);
  });

  it('uses in rules and dashboard only the metrics and labels the services expose', () => {
    const problems: string[] = [];
    for (const { where, expr } of promqlExpressions(rendering)) {
      for (const selector of seriesSelectors(expr)) {
        const known = lookUpSeries(selector.series);
        if (!known) {
          problems.push(`${where}: unknown metric ${selector.series || '(unnamed selector)'}`);
          continue;
        }
        const unknownLabels = selector.labels.filter((label) => !known.labels.includes(label) && !TARGET_LABELS.includes(label));
        if (unknownLabels.length > 0) problems.push(`${where}: ${selector.series} has no label ${unknownLabels.join(', ')}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('ships the Grafana dashboard file in a ConfigMap for the dashboard sidecar', () => {
    const file = 'alert-ingestion-dashboard.json';
    const configMap = rendering.one<IConfigMap>('ConfigMap', 'alert-ingestion-dashboard');
    expect(configMap.metadata.labels?.['grafana_dashboard']).toBe('1');
    expect(configMap.data?.[file]).toBe(readFileSync(join(k8sRoot, 'base', 'monitoring', file), 'utf8'));
    expect(JSON.parse(configMap.data![file]!)).toMatchObject({ uid: 'alert-ingestion', panels: expect.any(Array) });
  });
});

describe('deploy/k8s/base', () => {
  it('keeps the code defaults of every setting that is not specific to the deployment', () => {
    const rendering = render('base');
    const drifted: string[] = [];
    for (const workload of WORKLOADS) {
      const defaults = new workload.env() as Record<string, unknown>;
      const config = rendering.config(workload);
      for (const [name, value] of Object.entries(config)) {
        if (!DEPLOYMENT_SETTINGS.has(name) && !isDeepStrictEqual(value, defaults[name])) drifted.push(`${workload.name} ${name}=${String(value)} (default ${String(defaults[name])})`);
      }
    }
    expect(drifted).toEqual([]);
  });
});

describe('deploy/k8s/overlays/example', () => {
  it('pins every image to a registry and a version', () => {
    const rendering = render('overlays/example');
    for (const workload of WORKLOADS) {
      expect(rendering.container(workload).image).toMatch(new RegExp(`^[a-z0-9.-]+\\.[a-z]+/.+/${workload.target}:\\d+\\.\\d+\\.\\d+$`));
    }
    expect(rendering.objects.every((object) => object.kind === 'Namespace' || object.metadata.namespace === 'alert-ingestion')).toBe(true);
  });

  it('documents every key of the Secret in docs/operating.md', () => {
    const guide = readFileSync(join(repositoryRoot, 'docs', 'operating.md'), 'utf8');
    const start = guide.indexOf('## Deploying to Kubernetes');
    expect(start).toBeGreaterThanOrEqual(0);
    const section = guide.slice(start);
    for (const key of Object.keys(SECRET_KEYS)) expect(section).toContain(key);
  });
});
