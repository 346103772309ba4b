/**
 * Object metadata as Go's decoding into ObjectMeta leaves it: every ObjectMeta field is `omitempty`, so a JSON
 * `null` (`labels: null`, `finalizers: null`, `ownerReferences: null`, ...) is the field's zero value and absent
 * from what is stored; a `null` label or annotation value decodes into a map[string]string as `""`, and a `null`
 * finalizer into a []string as `""` (which validation then refuses). Run before validation on every write, so no
 * `null` reaches storage, selectors or watchers.
 */
import type { ObjectMeta } from '@svc-apiserver/api';

const stringMaps = ['labels', 'annotations'] as const;

/** Normalizes `meta` in place. */
export function normalizeObjectMeta(meta: ObjectMeta): void {
  const fields = meta as Record<string, unknown>;
  for (const key of Object.keys(fields)) if (fields[key] === null) delete fields[key];
  for (const key of stringMaps) {
    const map = fields[key];
    if (typeof map !== 'object' || map === null || Array.isArray(map)) continue;
    for (const [k, v] of Object.entries(map as Record<string, unknown>)) if (v === null) (map as Record<string, unknown>)[k] = '';
  }
  if (Array.isArray(fields['finalizers'])) fields['finalizers'] = (fields['finalizers'] as unknown[]).map((f) => (f === null ? '' : f));
}
