/**
 * kube's rbac.IsOnlyMutatingGCFields (pkg/registry/rbac/helpers.go): whether an update changes only what garbage
 * collection writes. Escalation checks of RBAC writes and the ClusterTrustBundleAttest admission plugin skip such
 * updates, so that the garbage collector and storage migration may touch objects they could not have written.
 */
import type { KubeObject } from '@svc-apiserver/api';

/** Metadata the garbage collector writes (owner references, finalizers), and what the server manages itself. */
const gcMetadataFields = ['ownerReferences', 'finalizers', 'managedFields', 'selfLink', 'resourceVersion', 'uid', 'creationTimestamp', 'generation'];

/** A canonical form for semantic equality: sorted keys; nulls, empty lists and empty maps dropped (as unset). */
function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    const v = canonical((value as Record<string, unknown>)[key]);
    if (v === null || v === undefined) continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[key] = v;
  }
  return out;
}

/** True when `object` differs from `old` only in fields garbage collection writes (or the server manages). */
export function onlyGcFieldsChanged(object: KubeObject, old: KubeObject): boolean {
  const strip = (o: KubeObject): unknown => {
    const metadata: Record<string, unknown> = { ...(o.metadata ?? {}) };
    for (const f of gcMetadataFields) delete metadata[f];
    return canonical({ ...o, metadata });
  };
  return JSON.stringify(strip(object)) === JSON.stringify(strip(old));
}
