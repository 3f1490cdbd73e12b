import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject';
import { PrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import type { KubernetesObject } from './kustomize';

interface SchemaModel {
  apiVersion: string;
  kind: string;
  new (data: never): { validate(): void };
}

/**
 * The kinds deploy/k8s may contain, each with the JSON schema kubernetes-models generated from the
 * Kubernetes OpenAPI document (core kinds) or from the project's CRD (KEDA, prometheus-operator).
 * An object of any other apiVersion/kind is refused, so nothing goes unvalidated.
 */
const MODELS: readonly SchemaModel[] = [
  Namespace,
  ConfigMap,
  Secret,
  Service,
  Deployment,
  Job,
  PodDisruptionBudget,
  HorizontalPodAutoscaler,
  NetworkPolicy,
  ScaledObject,
  ServiceMonitor,
  PrometheusRule,
];

export class SchemaViolation extends Error {}

/** Throws a SchemaViolation naming the object and every schema error. */
export function validateAgainstSchema(object: KubernetesObject): void {
  const name = `${object.apiVersion}/${object.kind} ${object.metadata?.name ?? '(no name)'}`;
  const model = MODELS.find((candidate) => candidate.apiVersion === object.apiVersion && candidate.kind === object.kind);
  if (!model) throw new SchemaViolation(`${name}: no schema for this apiVersion and kind`);
  try {
    new model(object as never).validate();
  } catch (error) {
    throw new SchemaViolation(`${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
