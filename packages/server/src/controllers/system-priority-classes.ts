/**
 * kube-apiserver's `scheduling/bootstrap-system-priority-classes` post-start hook: creates the PriorityClasses
 * `system-node-critical` (2000001000) and `system-cluster-critical` (2000000000) when they are missing, on every
 * replica (AlreadyExists from another replica is success). As in kube, a class that exists is left as it is: the
 * PriorityClass strategy refuses other values for these names, and its delete refuses to remove them.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import type { HealthCheck } from '../health/health-check.js';
import { createObject } from '../registry/operations/create-object.js';
import { loopbackUser } from '../registry/operations/loopback.js';
import type { Registry } from '../registry/registry.js';
import { runPostStartHook, type PostStartHook } from './post-start-hook.js';

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

/** Starts the hook; `retryMs` is the pause after a failed attempt (kube polls every second). */
export function startSystemPriorityClasses(registry: Registry, names: Names, retryMs = 1000, log?: (message: string) => void): PostStartHook & { readonly checks: HealthCheck[] } {
  const hook = runPostStartHook(async () => {
    const def = registry.lookup(names.group('scheduling'), 'v1', 'priorityclasses');
    if (def === undefined) return undefined;
    for (const pc of systemPriorityClasses(names)) {
      const name = pc.metadata!.name!;
      const got = await registry.store.get(def, '', name);
      if (got.ok) continue;
      if (got.error.code !== 404) return `unable to get PriorityClass ${name}: ${got.error.message ?? ''}. Retrying...`;
      const created = await createObject(registry, def, pc, { user: loopbackUser, dryRun: false });
      if (!created.ok && created.error.reason !== 'AlreadyExists') return `unable to create PriorityClass ${name}: ${created.error.message ?? ''}`;
      log?.(`created PriorityClass ${name} with value ${String(pc['value'])}`);
    }
    return undefined;
  }, retryMs, log);
  return { ...hook, checks: [{ name: 'poststarthook/scheduling/bootstrap-system-priority-classes', check: hook.check }] };
}
