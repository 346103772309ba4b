/**
 * kube-controller-manager's clusterrole-aggregation controller: every ClusterRole with an `aggregationRule` has as
 * `rules` the union of the rules of the ClusterRoles its selectors match (itself excluded) — per selector the
 * matched roles in name order, each rule appended unless an equal rule is already there. Any ClusterRole change
 * queues every aggregated role; a sync writes only when the rules differ, so direct edits of an aggregated role's
 * rules are overwritten. Failed syncs are retried after a pause.
 */
import { labelSelectorFromMeta, matchesLabels, type KubeObject, type Names } from '@svc-apiserver/api';
import type { PolicyRule, RoleObject } from '../auth/authz/rbac/rbac-types.js';
import type { HealthCheck } from '../health/health-check.js';
import { startInformer, type Informer } from '../registry/informer.js';
import { updateObject } from '../registry/operations/update-object.js';
import type { Registry } from '../registry/registry.js';
import type { ResourceDef } from '../registry/resource-def.js';
import { controllerUser } from './controller-user.js';

/** The running controller. */
export interface ClusterRoleAggregation {
  readonly checks: HealthCheck[];
  /** Resolves when the queue is empty (for tests). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Options of {@link startClusterRoleAggregation}. */
export interface ClusterRoleAggregationOptions {
  /** Pause before a failed sync is retried (default 1 s). */
  readonly retryMs?: number;
  readonly log?: (message: string) => void;
}

const canonical = (rule: PolicyRule): string => JSON.stringify([
  rule.verbs, rule.apiGroups ?? [], rule.resources ?? [], rule.resourceNames ?? [], rule.nonResourceURLs ?? [],
]);

/**
 * The rules an aggregated role should have, given every ClusterRole; undefined when `role` is not aggregated.
 * A selector that is not valid matches nothing (kube logs it and goes on).
 */
export function aggregatedRules(role: RoleObject, all: readonly RoleObject[]): PolicyRule[] | undefined {
  const selectors = role.aggregationRule?.clusterRoleSelectors;
  if (role.aggregationRule == null) return undefined;
  const name = role.metadata?.name ?? '';
  const rules: PolicyRule[] = [];
  const seen = new Set<string>();
  const byName = [...all].sort((a, b) => ((a.metadata?.name ?? '') < (b.metadata?.name ?? '') ? -1 : 1));
  for (const selector of selectors ?? []) {
    const parsed = labelSelectorFromMeta(selector);
    if (!parsed.ok || parsed.value === 'nothing') continue;
    const sel = parsed.value;
    for (const other of byName) {
      if (other.metadata?.name === name || !matchesLabels(sel, other.metadata?.labels)) continue;
      for (const rule of other.rules ?? []) {
        const key = canonical(rule);
        if (seen.has(key)) continue;
        seen.add(key);
        rules.push(rule);
      }
    }
  }
  return rules;
}

function sameRules(a: readonly PolicyRule[], b: readonly PolicyRule[]): boolean {
  return a.length === b.length && a.every((r, i) => canonical(r) === canonical(b[i]!));
}

/** Starts the controller over the registry's ClusterRoles. */
export function startClusterRoleAggregation(registry: Registry, names: Names, options: ClusterRoleAggregationOptions = {}): ClusterRoleAggregation {
  const retryMs = options.retryMs ?? 1000;
  const def: ResourceDef | undefined = registry.lookup(names.group('rbac.authorization'), 'v1', 'clusterroles');
  if (def === undefined) return { checks: [], idle: async () => {}, stop: async () => {} };
  const informer: Informer = startInformer(registry, def, { retryMs, ...(options.log ? { log: options.log } : {}) });
  const queue = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  let stopped = false;
  let running: Promise<void> | undefined;
  let idleWaiters: (() => void)[] = [];

  const roles = (): RoleObject[] => informer.list() as RoleObject[];

  const sync = async (name: string): Promise<boolean> => {
    const current = informer.get('', name) as RoleObject | undefined;
    if (current === undefined) return true;
    const wanted = aggregatedRules(current, roles());
    if (wanted === undefined || sameRules(wanted, current.rules ?? [])) return true;
    const updated = await updateObject(registry, def, '', { ...structuredClone(current), rules: wanted } as KubeObject, current, {
      user: controllerUser, dryRun: false,
    });
    if (!updated.ok) {
      options.log?.(`aggregating ClusterRole ${name}: ${updated.status.message ?? 'update failed'}`);
      return updated.status.code === 404;
    }
    return true;
  };

  const drain = async (): Promise<void> => {
    while (!stopped && queue.size > 0) {
      const name = queue.values().next().value as string;
      queue.delete(name);
      let ok = false;
      try {
        ok = await sync(name);
      } catch (err) {
        options.log?.(`aggregating ClusterRole ${name}: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (!ok && !stopped) {
        // Rate-limited requeue: the informer's newer state is read on the retry.
        const t = setTimeout(() => {
          timers.delete(t);
          enqueue([name]);
        }, retryMs);
        t.unref();
        timers.add(t);
      }
    }
    running = undefined;
    if (queue.size === 0 && timers.size === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
    }
  };

  function enqueue(namesToSync: readonly string[]): void {
    if (stopped) return;
    for (const n of namesToSync) queue.add(n);
    // Only with work queued: a drain of an empty queue would end before `running` is assigned, and stay assigned.
    if (queue.size > 0) running ??= drain();
  }

  // Any ClusterRole change may change what any aggregated role selects: queue every aggregated role.
  const enqueueAll = (): void => {
    if (!informer.hasSynced()) return;
    enqueue(roles().filter((r) => r.aggregationRule != null).map((r) => r.metadata?.name ?? ''));
  };
  const removeListener = informer.onChange(() => enqueueAll());
  void informer.synced().then(() => enqueueAll());

  return {
    checks: [],
    async idle() {
      await informer.synced();
      if (queue.size === 0 && timers.size === 0 && running === undefined) return;
      await new Promise<void>((resolve) => idleWaiters.push(resolve));
    },
    async stop() {
      stopped = true;
      removeListener();
      informer.stop();
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await running;
      for (const w of idleWaiters) w();
      idleWaiters = [];
    },
  };
}
