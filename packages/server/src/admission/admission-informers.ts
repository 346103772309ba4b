/**
 * Shared informers for admission plugins (kube hands plugins listers of one SharedInformerFactory): one informer
 * per resource however many plugins read it, started on first use, over the watch cache. A plugin reads its
 * namespace's LimitRanges or the PriorityClasses from memory; no request scans storage.
 */
import type { Informer } from '../registry/informer.js';
import { startInformer } from '../registry/informer.js';
import type { Registry } from '../registry/registry.js';
import type { ResourceDef } from '../registry/resource-def.js';
import type { AdmissionInformers } from './plugin.js';

/** The pool, with a way to stop every informer it started. */
export interface AdmissionInformerPool extends AdmissionInformers {
  stop(): void;
}

/** The served version of a resource an informer holds: the one stored as served, else the first served. */
function preferred(registry: Registry, group: string, resource: string): ResourceDef | undefined {
  const served = registry.all().filter((d) => d.group === group && d.resource === resource);
  return served.find((d) => d.conversion === undefined) ?? served[0];
}

/** A pool over `registry`. */
export function admissionInformerPool(registry: Registry, options: { readonly retryMs?: number } = {}): AdmissionInformerPool {
  const informers = new Map<string, Informer>();
  let stopped = false;
  const forResource = (group: string, resource: string): Informer | undefined => {
    const key = `${group}/${resource}`;
    const existing = informers.get(key);
    if (existing !== undefined) return existing;
    if (stopped) return undefined;
    const def = preferred(registry, group, resource);
    if (def === undefined) return undefined;
    const informer = startInformer(registry, def, options.retryMs === undefined ? {} : { retryMs: options.retryMs });
    informers.set(key, informer);
    return informer;
  };
  return {
    forResource,
    async synced(group, resource) {
      const informer = forResource(group, resource);
      if (informer !== undefined && !informer.hasSynced()) await informer.synced();
      return informer;
    },
    stop() {
      stopped = true;
      for (const i of informers.values()) i.stop();
      informers.clear();
    },
  };
}
