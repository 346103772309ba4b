/**
 * kube-apiserver's `scheduling/bootstrap-system-priority-classes` post-start hook: creates the PriorityClasses
 * `system-node-critical` (2000001000) and `system-cluster-critical` (2000000000) when they are missing, on every
 * replica (AlreadyExists from another replica is success). As in kube, a class that exists is left as it is: the
 * PriorityClass strategy refuses other values for these names, and its delete refuses to remove them. The creates of
 * its first attempt join the start-up batch.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import type { HealthCheck } from '../health/health-check.js';
import type { Registry } from '../registry/registry.js';
import { runPostStartHook, type PostStartHook } from './post-start-hook.js';
import { directWriter, type StartupWriter } from './startup-batch.js';

/** kube's SystemPriorityClasses (scheduling/v1). */
export function systemPriorityClasses(names: Names): KubeObject[] {
  const apiVersion = `${names.group('scheduling')}/v1`;
  return [
    {
      apiVersion, kind: 'PriorityClass', metadata: { name: 'system-node-critical' }, value: 2_000_001_000,
      description: 'Used for system critical pods that must not be moved from their current node.',
    },
    {
      apiVersion, kind: 'PriorityClass', metadata: { name: 'system-cluster-critical' }, value: 2_000_000_000,
      description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
    },
  ];
}

/**
 * Starts the hook; `retryMs` is the pause after a failed attempt (kube polls every second); the creates go through
 * `writer`.
 */
export function startSystemPriorityClasses(
  registry: Registry, names: Names, retryMs = 1000, log?: (message: string) => void, writer?: StartupWriter,
): PostStartHook & { readonly checks: HealthCheck[] } {
  const creates = writer ?? directWriter(registry);
  const hook = runPostStartHook(async () => {
    try {
      const def = registry.lookup(names.group('scheduling'), 'v1', 'priorityclasses');
      if (def === undefined) return undefined;
      const wanted = systemPriorityClasses(names);
      const present = await Promise.all(wanted.map((pc) => registry.store.get(def, '', pc.metadata!.name!)));
      const unread = present.findIndex((got) => !got.ok && got.error.code !== 404);
      if (unread >= 0) {
        const failed = present[unread]!;
        return `unable to get PriorityClass ${wanted[unread]!.metadata!.name!}: ${failed.ok ? '' : failed.error.message ?? ''}. Retrying...`;
      }
      const missing = wanted.filter((_, i) => !present[i]!.ok);
      const created = await creates.create(missing.map((object) => ({ def, object })));
      for (const [i, result] of created.entries()) {
        const pc = missing[i]!;
        if (!result.ok && result.error.reason !== 'AlreadyExists') return `unable to create PriorityClass ${pc.metadata!.name!}: ${result.error.message ?? ''}`;
        if (result.ok) log?.(`created PriorityClass ${pc.metadata!.name!} with value ${String(pc['value'])}`);
      }
      return undefined;
    } finally {
      creates.release();
    }
  }, retryMs, log);
  return { ...hook, checks: [{ name: 'poststarthook/scheduling/bootstrap-system-priority-classes', check: hook.check }] };
}
