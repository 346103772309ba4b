/**
 * Serving custom resources (apiextensions-apiserver's crdHandler and its discovery controller): an informer over
 * CustomResourceDefinitions defines, on every replica, the served versions of each CRD whose names are accepted or
 * that is established as resources of the registry, and takes them away when the CRD is gone — so a CRD created
 * through one replica is served by all. The readyz check `poststarthook/crd-informer-synced` passes once the CRDs
 * stored at start are served.
 */
import type { Names } from '@svc-apiserver/api';
import type { HealthCheck } from '../../health/health-check.js';
import { startInformer } from '../informer.js';
import type { Registry } from '../registry.js';
import { isConditionTrue, type CustomResourceDefinition } from '../../apiextensions/crd.js';
import { customResourceDefs, type CustomResourceDefOptions } from './custom-resource-def.js';

/** Serving of custom resources, running. */
export interface CrdServing {
  readonly check: HealthCheck;
  stop(): void;
}

/** True when kube serves a CRD's resources: its names are accepted or it is established. */
export function isServed(crd: CustomResourceDefinition): boolean {
  return isConditionTrue(crd, 'Established') || isConditionTrue(crd, 'NamesAccepted');
}

/** A stable text of what a CRD's served resources depend on, so unrelated status writes define nothing anew. */
function servingKey(crd: CustomResourceDefinition): string {
  return JSON.stringify([crd.metadata?.uid, crd.metadata?.deletionTimestamp, crd.spec, crd.status?.acceptedNames, isServed(crd)]);
}

/** Starts serving the registry's CRDs. */
export function startCrdServing(
  registry: Registry, names: Names, options: { readonly retryMs?: number } & CustomResourceDefOptions = {},
): CrdServing {
  const crdDef = registry.lookup(names.group('apiextensions'), 'v1', 'customresourcedefinitions');
  if (crdDef === undefined) {
    return { check: { name: 'poststarthook/crd-informer-synced', check: async () => undefined }, stop: () => {} };
  }
  const informer = startInformer(registry, crdDef, options.retryMs === undefined ? {} : { retryMs: options.retryMs });
  const keys = new Map<string, string>();
  /** The CRD serving each collection prefix. */
  const owners = new Map<string, string>();
  const remove = informer.onChange((change, object) => {
    const crd = object as CustomResourceDefinition;
    const name = crd.metadata?.name ?? '';
    const before = registry.all().filter((d) => d.custom !== undefined && owners.get(d.keyPrefix) === name).map((d) => d.keyPrefix);
    if (change === 'DELETED') {
      keys.delete(name);
      registry.define(name, []);
      for (const prefix of new Set(before)) registry.store.forget(prefix);
      return;
    }
    const key = servingKey(crd);
    if (keys.get(name) === key) return;
    const first = !keys.has(name);
    keys.set(name, key);
    const defs = isServed(crd) ? customResourceDefs(crd, names, options) : [];
    for (const d of defs) owners.set(d.keyPrefix, name);
    registry.define(name, defs);
    // A changed definition reads its objects anew (schema defaults, versions), as kube rebuilds a CRD's storage.
    if (!first) for (const prefix of new Set([...before, ...defs.map((d) => d.keyPrefix)])) registry.store.forget(prefix);
  }, { replay: true });
  return {
    check: {
      name: 'poststarthook/crd-informer-synced',
      check: async () => (informer.hasSynced() ? undefined : 'not synced'),
    },
    stop() {
      remove();
      informer.stop();
      for (const name of keys.keys()) registry.define(name, []);
      keys.clear();
    },
  };
}
