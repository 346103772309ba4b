/**
 * kube-controller-manager's clusterrole-aggregation controller: every ClusterRole with an `aggregationRule` has as
 * `rules` the union of the rules of the ClusterRoles its selectors match (itself excluded) — per selector the
 * matched roles in name order, each rule appended unless an equal rule is already there. Any ClusterRole change
 * queues every aggregated role; a sync writes only when the rules differ, applying them (forced) as the field manager
 * `clusterrole-aggregation-controller`, so direct edits of an aggregated role's rules are overwritten. Failed syncs are retried with back-off (client-go's default controller rate limiter).
 */
import { labelSelectorFromMeta, matchesLabels, ok, type KubeObject, type Names } from '@svc-apiserver/api';
import type { PolicyRule, RoleObject } from '../registry/resources/rbac-types.js';
import { updateObject } from '../registry/operations/update-object.js';
import type { Registry } from '../registry/registry.js';
import type { ResourceDef } from '../registry/resource-def.js';
import { applyKindDefaults } from '../registry/operations/defaulting.js';
import { fieldManagerScope } from '../registry/operations/field-management.js';
import { loopbackUser } from '../registry/operations/loopback.js';
import { applyMechanism } from '../registry/operations/patch-mechanisms/apply.js';
import { done, retry, runController, type Controller, type ControllerContext, type SyncResult } from './kit/controller.js';
import { createWorkQueue } from './kit/work-queue.js';

/** Options of {@link startClusterRoleAggregation}. */
export type ClusterRoleAggregationOptions = Omit<ControllerContext, 'registry' | 'names'>;

/** The field manager of the aggregated rules (kube's controller applies them under this name, not its client's). */
export const aggregationFieldManager = 'clusterrole-aggregation-controller';

/** The aggregation controller's workers (kube-controller-manager starts it with 5). */
const workers = 5;

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
export function startClusterRoleAggregation(registry: Registry, names: Names, options: ClusterRoleAggregationOptions = {}): Controller {
  const def: ResourceDef | undefined = registry.lookup(names.group('rbac.authorization'), 'v1', 'clusterroles');
  return runController('clusterrole-aggregation', { ...options, registry }, (informers) => {
    if (def === undefined) return { loops: [] };
    const informer = informers.informerFor(def);
    const queue = createWorkQueue();
    const roles = (): RoleObject[] => informer.list() as RoleObject[];

    const sync = async (name: string): Promise<SyncResult> => {
      const current = informer.get('', name) as RoleObject | undefined;
      if (current === undefined) return done;
      const wanted = aggregatedRules(current, roles());
      if (wanted === undefined || sameRules(wanted, current.rules ?? [])) return done;
      // kube's controller applies the rules, forced, as its own field manager; written over the informer's state:
      // a conflict means a newer one is coming, and the retry reads it.
      const applied = await applyMechanism({
        configuration: { apiVersion: `${def.group}/${def.version}`, kind: 'ClusterRole', metadata: { name }, rules: wanted } as KubeObject,
        fieldManager: aggregationFieldManager, force: true, scope: fieldManagerScope(def, ''),
        lastAppliedAnnotation: registry.names.domain('last-applied-configuration', 'kubectl'),
        fieldValidation: ok([]), defaults: (object) => applyKindDefaults(def, object),
      }).next(structuredClone(current));
      if (!applied.ok) return retry(`aggregating ClusterRole ${name}: ${applied.error.message ?? 'apply failed'}`);
      const updated = await updateObject(registry, def, '', applied.value.object, current, { user: loopbackUser, dryRun: false });
      if (!updated.ok && updated.error.code !== 404) return retry(`aggregating ClusterRole ${name}: ${updated.error.message ?? 'update failed'}`);
      return done;
    };

    // Any ClusterRole change may change what any aggregated role selects: queue every aggregated role.
    const enqueueAll = (): void => {
      if (!informer.hasSynced()) return;
      for (const r of roles()) if (r.aggregationRule != null) queue.add(r.metadata?.name ?? '');
    };
    return { handlers: [{ informer, listener: enqueueAll }], onSynced: enqueueAll, loops: [{ queue, sync, workers }] };
  });
}
