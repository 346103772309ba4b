/**
 * The `scale` subresource of the workloads (kube's ScaleREST): the autoscaling/v1 Scale view of a deployment,
 * replicaset, statefulset or replicationcontroller, and the way back: a Scale changes the workload's
 * `spec.replicas` only, written through the workload's own update strategy. Admission sees the Scale.
 */
import { apiVersionOf, fieldError, invalid, type KubeObject, type Status } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import type { CustomScale, ResourceDef } from '../resource-def.js';

/** A label selector (metav1.LabelSelector, or a replicationcontroller's plain map) as labels.Selector.String() prints it. */
export function selectorString(selector: unknown): string {
  const s = record(selector) ?? {};
  const isMap = s['matchLabels'] === undefined && s['matchExpressions'] === undefined;
  const matchLabels = record(isMap ? s : s['matchLabels']) ?? {};
  const parts: { key: string; text: string }[] = Object.entries(matchLabels).map(([k, v]) => ({ key: k, text: `${k}=${String(v)}` }));
  for (const raw of Array.isArray(s['matchExpressions']) ? s['matchExpressions'] : []) {
    const e = record(raw) ?? {};
    const key = String(e['key'] ?? '');
    const values = (Array.isArray(e['values']) ? e['values'].map(String) : []).sort();
    const op = String(e['operator'] ?? '');
    const text = op === 'In' ? `${key} in (${values.join(',')})` : op === 'NotIn' ? `${key} notin (${values.join(',')})`
      : op === 'Exists' ? key : `!${key}`;
    parts.push({ key, text });
  }
  // labels.Selector sorts its requirements by key.
  return parts.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((p) => p.text).join(',');
}

/** A value at a `.spec.replicas`-style path of a custom object. */
function atPath(object: unknown, path: string): unknown {
  let cur: unknown = object;
  for (const part of path.replace(/^\./, '').split('.')) cur = record(cur)?.[part];
  return cur;
}

/** The Scale of a custom object (kube's scaleFromCustomResource): replicas and selector read from its scale paths. */
function customScaleOf(scale: CustomScale, object: KubeObject): KubeObject {
  const meta = object.metadata ?? {};
  const scaleMeta: NonNullable<KubeObject['metadata']> = {};
  for (const key of ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp'] as const) {
    if (meta[key] !== undefined) scaleMeta[key] = meta[key];
  }
  const int = (v: unknown): number => (typeof v === 'number' && Number.isInteger(v) ? v : 0);
  const specReplicas = int(atPath(object, scale.specReplicasPath));
  const selector = scale.labelSelectorPath !== undefined ? atPath(object, scale.labelSelectorPath) : undefined;
  return {
    kind: 'Scale',
    apiVersion: apiVersionOf('autoscaling', 'v1'),
    metadata: scaleMeta,
    spec: specReplicas !== 0 ? { replicas: specReplicas } : {},
    status: { replicas: int(atPath(object, scale.statusReplicasPath)), ...(typeof selector === 'string' && selector !== '' ? { selector } : {}) },
  };
}

/** The Scale of a workload (kube's scaleFromDeployment and friends) or of a custom object. */
export function scaleOf(def: ResourceDef, object: KubeObject): KubeObject {
  if (def.custom?.scale !== undefined) return customScaleOf(def.custom.scale, object);
  const sub = def.subresources.find((s) => s.name === 'scale');
  const meta = object.metadata ?? {};
  const spec = record(object['spec']) ?? {};
  const status = record(object.status) ?? {};
  const replicas = typeof spec['replicas'] === 'number' ? spec['replicas'] : 0;
  const scaleMeta: NonNullable<KubeObject['metadata']> = {};
  for (const key of ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp'] as const) {
    if (meta[key] !== undefined) scaleMeta[key] = meta[key];
  }
  return {
    kind: 'Scale',
    apiVersion: apiVersionOf(sub?.group ?? 'autoscaling', sub?.version ?? 'v1'),
    metadata: scaleMeta,
    // ScaleSpec.replicas is omitempty; ScaleStatus.replicas is not.
    spec: replicas !== 0 ? { replicas } : {},
    status: { replicas: typeof status['replicas'] === 'number' ? status['replicas'] : 0, selector: selectorString(spec['selector']) },
  };
}

/** ValidateScale: replicas must not be negative (422 on the Scale). */
export function validateScale(def: ResourceDef, scale: KubeObject, name: string): Status | undefined {
  const replicas = record(scale['spec'])?.['replicas'] ?? 0;
  if (typeof replicas === 'number' && replicas >= 0) return undefined;
  const sub = def.subresources.find((s) => s.name === 'scale');
  return invalid('Scale', { group: sub?.group ?? 'autoscaling', resource: 'Scale' }, name,
    [fieldError.invalid('spec.replicas', replicas, 'must be greater than or equal to 0')]);
}

/**
 * The workload with the Scale's `spec.replicas` (kube's scaleUpdatedObjectInfo; an unset one is 0); for a custom
 * object, set at its spec replicas path.
 */
export function withReplicas(def: ResourceDef, object: KubeObject, scale: KubeObject): KubeObject {
  const next = structuredClone(object);
  const replicas = record(scale['spec'])?.['replicas'] ?? 0;
  const customPath = def.custom?.scale?.specReplicasPath;
  if (customPath !== undefined) {
    const parts = customPath.replace(/^\./, '').split('.');
    let cur = next as Record<string, unknown>;
    for (const part of parts.slice(0, -1)) {
      const child = record(cur[part]);
      cur = child ?? (cur[part] = {}) as Record<string, unknown>;
    }
    cur[parts[parts.length - 1]!] = replicas;
    return next;
  }
  const spec = (next['spec'] ??= {}) as Record<string, unknown>;
  spec['replicas'] = replicas;
  return next;
}
