/**
 * The resourcequota controller (pkg/controller/resourcequota): keeps every ResourceQuota's `status` current —
 * `status.hard` mirrors `spec.hard`, `status.used` is the usage of the namespace's objects under the quota's scopes
 * (quota-evaluators.ts, the same counting admission charges). A quota is synced when it appears, when its
 * `spec.hard` changes, when an object it counts is deleted or changes its usage (a pod ending, a service changing
 * type), and every resync period; creations are charged by the ResourceQuota admission plugin. The objects are
 * read from informers, started for a resource only once some quota counts it.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { jsonEqual, type Json } from '../admission/object-access.js';
import { listToJson, resourceListOf, type ResourceList } from '../admission/resource-lists.js';
import { quotaEvaluators, quotaScopes, resourceOfQuotaName, sameUsage } from '../admission/resource-quota/quota-evaluators.js';
import { addQuantities, zeroQuantity } from '../meta/quantity.js';
import type { Informer } from '../registry/informer.js';
import { updateObject } from '../registry/operations/update-object.js';
import { loopbackContext } from '../registry/operations/loopback.js';
import { done, retry, runController, type Controller, type ControllerContext, type SyncResult } from './kit/controller.js';
import { createWorkQueue } from './kit/work-queue.js';

/** kube-controller-manager's `--resource-quota-sync-period`. */
const defaultResyncMs = 5 * 60_000;
/** `--concurrent-resource-quota-syncs`. */
const workers = 5;

/** Options of the controller beyond its context. */
export interface ResourceQuotaControllerOptions {
  /** Period of the full recalculation (default 5 minutes). */
  readonly resyncMs?: number;
}

const hardOf = (quota: KubeObject): ResourceList => resourceListOf((quota['spec'] as Json | undefined)?.['hard']);

/** Starts the controller. */
export function startResourceQuotaController(context: ControllerContext, options: ResourceQuotaControllerOptions = {}): Controller {
  const { registry, names } = context;
  const quotaDef = registry.lookup('', 'v1', 'resourcequotas');
  const evaluatorFor = quotaEvaluators(names);
  let resync: NodeJS.Timeout | undefined;

  const controller = runController('resourcequota', context, (informers) => {
    if (quotaDef === undefined) return { loops: [] };
    const quotas = informers.informerFor(quotaDef);
    const queue = createWorkQueue();
    /** The monitors of counted resources, by `group/resource`. */
    const monitors = new Map<string, Informer>();
    const keyOf = (q: KubeObject) => `${q.metadata?.namespace ?? ''}/${q.metadata?.name ?? ''}`;
    const enqueueNamespace = (namespace: string) => {
      for (const q of quotas.listIn(namespace)) queue.add(keyOf(q));
    };

    /** The informer of a counted resource, started (and listened to) on first need. */
    const monitor = (group: string, resource: string): Informer | undefined => {
      const key = `${group}/${resource}`;
      const existing = monitors.get(key);
      if (existing !== undefined) return existing;
      const served = registry.all().filter((d) => d.group === group && d.resource === resource);
      const def = served.find((d) => d.conversion === undefined) ?? served[0];
      if (def === undefined) return undefined;
      const informer = informers.informerFor(def);
      const evaluator = evaluatorFor(group, resource);
      informer.onChange((change, object, old) => {
        const namespace = object.metadata?.namespace ?? '';
        if (change === 'DELETED') return enqueueNamespace(namespace);
        if (change === 'MODIFIED' && old !== undefined && !sameUsage(evaluator.usage(object, Date.now()), evaluator.usage(old, Date.now()))) {
          enqueueNamespace(namespace);
        }
      });
      monitors.set(key, informer);
      return informer;
    };

    const sync = async (key: string): Promise<SyncResult> => {
      const slash = key.indexOf('/');
      const namespace = key.slice(0, slash);
      const name = key.slice(slash + 1);
      const quota = quotas.get(namespace, name);
      if (quota === undefined) return done;
      const hard = hardOf(quota);
      const scopes = quotaScopes(quota);
      const now = Date.now();
      let used: ResourceList = new Map();
      const byResource = new Map<string, string[]>();
      for (const resourceName of hard.keys()) {
        const target = resourceOfQuotaName(resourceName, names);
        if (target === undefined) continue;
        const k = `${target.group}/${target.resource}`;
        byResource.set(k, [...(byResource.get(k) ?? []), resourceName]);
      }
      for (const [k, wanted] of byResource) {
        const [group, resource] = [k.slice(0, k.indexOf('/')), k.slice(k.indexOf('/') + 1)];
        const informer = monitor(group, resource);
        if (informer === undefined) continue;
        if (!informer.hasSynced()) await informer.synced();
        const evaluator = evaluatorFor(group, resource);
        const names_ = evaluator.matchingResources(wanted);
        for (const n of names_) used.set(n, used.get(n) ?? zeroQuantity);
        for (const object of informer.listIn(namespace)) {
          if (!scopes.every((s) => evaluator.matchesScope(s, object))) continue;
          for (const [n, q] of evaluator.usage(object, now)) {
            if (names_.includes(n)) used.set(n, addQuantities(used.get(n) ?? zeroQuantity, q));
          }
        }
      }
      const previous = (quota['status'] as Json | undefined) ?? {};
      // Names no evaluator counts keep what they had.
      const kept = resourceListOf(previous['used']);
      for (const n of hard.keys()) if (!used.has(n) && kept.has(n)) used.set(n, kept.get(n)!);
      used = new Map([...used].filter(([n]) => hard.has(n)));
      const status = { hard: listToJson(hard), used: listToJson(used) };
      if (jsonEqual(status, { hard: previous['hard'] ?? {}, used: previous['used'] ?? {} })) return done;
      const next = { ...structuredClone(quota), status };
      const written = await updateObject(registry, quotaDef, 'status', next, quota, loopbackContext(registry.names, 'controller-manager'));
      if (!written.ok) return written.error.code === 404 ? done : retry(`updating status: ${written.error.message ?? 'failed'}`);
      return done;
    };

    return {
      handlers: [{
        informer: quotas,
        listener(change, quota, old) {
          if (change === 'DELETED') return;
          // Status changes are this controller's or admission's own: only a changed spec.hard calls for a sync.
          if (change === 'MODIFIED' && old !== undefined && jsonEqual((old['spec'] as Json | undefined)?.['hard'], (quota['spec'] as Json | undefined)?.['hard'])) {
            return;
          }
          queue.add(keyOf(quota));
        },
      }],
      onSynced() {
        resync = setInterval(() => {
          for (const q of quotas.list()) queue.add(keyOf(q));
        }, options.resyncMs ?? defaultResyncMs);
        resync.unref();
      },
      loops: [{ queue, sync, workers }],
    };
  });
  return {
    ...controller,
    async stop() {
      if (resync !== undefined) clearInterval(resync);
      await controller.stop();
    },
  };
}
