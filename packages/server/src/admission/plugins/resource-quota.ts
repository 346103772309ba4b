/**
 * ResourceQuota (plugin/pkg/admission/resourcequota): a write that consumes quota (see quota-evaluators.ts) is
 * checked against every ResourceQuota of its namespace that it falls under, and charged to them: the quotas'
 * `status.used` grows by the write's usage before the write is stored, so that concurrent writes cannot overrun
 * a quota (the resourcequota controller recomputes usage as objects go). A write that would exceed a quota is
 * refused (`exceeded quota: <name>, requested: ..., used: ..., limited: ...`), and so is one under a quota whose
 * status the controller has not filled yet, or one missing a resource the quota requires stated. Resources the
 * configuration lists as limited (`limitedResources`) need a covering quota to be consumed at all. Writes within
 * a namespace are checked one at a time; dry runs are checked, not charged.
 */
import { failure, type KubeObject, type Names, ok, type Result } from '@svc-apiserver/api';
import { updateObject } from '../../registry/operations/update-object.js';
import { loopbackContext } from '../../registry/operations/loopback.js';
import { compareQuantities } from '../../meta/quantity.js';
import { selectEverything } from '../../registry/selection.js';
import { admissionForbidden } from '../admission-errors.js';
import { asObject, objectsOf, stringOf } from '../object-access.js';
import { configFields, configurationError, versionedConfiguration } from '../plugin-configuration.js';
import { dependencyHolder } from '../plugin-dependencies.js';
import {
  admitted, refused, type AdmissionAttributes, type AdmissionResult, type InitializablePlugin, type PluginConfigurationError, type PluginInit,
} from '../plugin.js';
import { addLists, listToJson, printList, resourceListOf, type ResourceList } from '../resource-lists.js';
import { quotaEvaluators, quotaMatches, quotaScopes, type QuotaEvaluator, type ScopeRequirement } from '../resource-quota/quota-evaluators.js';

/** The plugin's name. */
export const resourceQuotaPluginName = 'ResourceQuota';

/** A resource that may only be consumed under a covering quota (LimitedResource). */
interface LimitedResource {
  readonly apiGroup: string;
  readonly resource: string;
  readonly matchContains: readonly string[];
  readonly matchScopes: readonly ScopeRequirement[];
}

/** Writes retried after a conflict on a quota's status. */
const maxConflictRetries = 3;

/** Reads `limitedResources` of the configuration (ResourceQuotaConfiguration, or the older Configuration kinds). */
function readLimitedResources(names: Names, raw: unknown): Result<LimitedResource[], PluginConfigurationError> {
  if (raw === undefined || raw === null) return ok([]);
  const doc = configFields(raw);
  const current = versionedConfiguration(resourceQuotaPluginName, raw, [`${names.group('apiserver.config')}/v1`], 'ResourceQuotaConfiguration');
  const older = versionedConfiguration(resourceQuotaPluginName, raw,
    ['v1beta1', 'v1alpha1'].map((v) => `${names.group('resourcequota.admission')}/${v}`), 'Configuration');
  if (!current.ok && !older.ok) {
    return doc?.['kind'] === 'Configuration' ? older : current;
  }
  const list = (doc?.['limitedResources'] ?? []) as unknown;
  if (!Array.isArray(list)) return configurationError(resourceQuotaPluginName, 'limitedResources must be a list');
  const out: LimitedResource[] = [];
  for (const [i, item] of list.entries()) {
    const l = configFields(item);
    if (l === undefined || typeof l['resource'] !== 'string' || l['resource'] === '') {
      return configurationError(resourceQuotaPluginName, `limitedResources[${i}].resource is required`);
    }
    out.push({
      apiGroup: stringOf(l['apiGroup']),
      resource: l['resource'],
      matchContains: (Array.isArray(l['matchContains']) ? l['matchContains'] : []).map(String),
      matchScopes: objectsOf(l['matchScopes']).map((s) => ({
        scopeName: stringOf(s['scopeName']), operator: stringOf(s['operator']), values: (Array.isArray(s['values']) ? s['values'] : []).map(String),
      })),
    });
  }
  return ok(out);
}

const hardOf = (quota: KubeObject): ResourceList => resourceListOf(asObject(quota['status'])?.['hard']);
const usedOf = (quota: KubeObject): ResourceList => resourceListOf(asObject(quota['status'])?.['used']);
const only = (list: ResourceList, keep: Iterable<string>): ResourceList => {
  const names = new Set(keep);
  return new Map([...list].filter(([k]) => names.has(k)));
};

/** Creates the plugin with its configuration. */
export function resourceQuotaPlugin(names: Names, init?: PluginInit): Result<InitializablePlugin, PluginConfigurationError> {
  const read = readLimitedResources(names, init?.configuration(resourceQuotaPluginName));
  if (!read.ok) return read;
  const limited = read.value;
  const deps = dependencyHolder(resourceQuotaPluginName);
  const evaluatorFor = quotaEvaluators(names);
  /** The last quota versions this plugin wrote, newer than the cache may yet show. */
  const written = new Map<string, KubeObject>();
  /** The tail of each namespace's queue of checks. */
  const queues = new Map<string, Promise<unknown>>();

  const serialized = <T>(namespace: string, work: () => Promise<T>): Promise<T> => {
    const before = queues.get(namespace) ?? Promise.resolve();
    const run = before.then(work, work);
    const tail = run.catch(() => undefined);
    queues.set(namespace, tail);
    void tail.then(() => {
      if (queues.get(namespace) === tail) queues.delete(namespace);
    });
    return run;
  };

  /** The namespace's quotas: the cache's, or the version this plugin wrote where that is newer. */
  const currentQuotas = (cached: readonly KubeObject[]): KubeObject[] => cached.map((q) => {
    const key = `${q.metadata?.namespace}/${q.metadata?.name}`;
    const mine = written.get(key);
    if (mine === undefined) return q;
    if (Number(mine.metadata?.resourceVersion ?? 0) > Number(q.metadata?.resourceVersion ?? 0)) return mine;
    written.delete(key);
    return q;
  });

  /** checkRequest: the refusal, or the quotas with their new usage. */
  const check = (a: AdmissionAttributes, evaluator: QuotaEvaluator, quotas: readonly KubeObject[], relevant: readonly LimitedResource[]): AdmissionResult | KubeObject[] => {
    const object = a.object!;
    const now = Date.now();
    const restricted = new Set<string>();
    const matchedScopes: ScopeRequirement[] = [];
    const interesting: KubeObject[] = [];
    for (const quota of quotas) {
      for (const scope of quotaScopes(quota)) if (evaluator.matchesScope(scope, object)) matchedScopes.push(scope);
      if (!quotaMatches(evaluator, quota, object)) continue;
      const name = quota.metadata?.name ?? '';
      const hard = [...hardOf(quota).keys()];
      const restrictedHere = evaluator.matchingResources(hard);
      const why = evaluator.constraints(restrictedHere, object);
      if (why !== undefined) return refused(admissionForbidden(a, `failed quota: ${name}: ${why}`));
      const used = usedOf(quota);
      const missing = restrictedHere.filter((r) => !used.has(r));
      if (missing.length > 0) return refused(admissionForbidden(a, `status unknown for quota: ${name}, resources: ${restrictedHere.sort().join(',')}`));
      interesting.push(quota);
      for (const r of restrictedHere) restricted.add(r);
    }
    if (relevant.length > 0) {
      const usage = evaluator.usage(object, now);
      const consumed = [...usage].filter(([, q]) => q.nano > 0n).map(([k]) => k);
      const limitedNames = new Set(relevant.flatMap((l) => consumed.filter((k) => l.matchContains.some((c) => k.includes(c)))));
      const uncovered = [...limitedNames].filter((n) => !restricted.has(n)).sort();
      if (uncovered.length > 0) return refused(admissionForbidden(a, `insufficient quota to consume: ${uncovered.join(',')}`));
      const limitedScopes = relevant.flatMap((l) => l.matchScopes.filter((s) => evaluator.matchesScope(s, object)));
      const uncoveredScopes = limitedScopes.filter((s) => !matchedScopes.some((m) => m.scopeName === s.scopeName));
      if (uncoveredScopes.length > 0) {
        const shown = uncoveredScopes.map((s) => `{${s.scopeName} ${s.operator} [${s.values.join(' ')}]}`).join(' ');
        return refused(failure('Unknown', `insufficient quota to match these scopes: [${shown}]`, undefined, 500));
      }
    }
    if (interesting.length === 0) return [];
    let delta = evaluator.usage(object, now);
    for (const [k, q] of delta) {
      if (q.nano < 0n) return refused(admissionForbidden(a, `quota usage is negative for resource(s): ${k}`));
    }
    if (a.operation === 'UPDATE' && a.oldObject !== undefined) {
      const before = evaluator.usage(a.oldObject, now);
      delta = new Map([...delta].map(([k, q]) => {
        const prev = before.get(k);
        const diff = prev === undefined ? q.nano : q.nano - prev.nano;
        return [k, { nano: diff < 0n ? 0n : diff, format: q.format }];
      }));
    }
    delta = new Map([...delta].filter(([, q]) => q.nano !== 0n));
    if (delta.size === 0) return [];
    const charged: KubeObject[] = [];
    for (const quota of interesting) {
      const hard = hardOf(quota);
      const requested = only(delta, hard.keys());
      if (requested.size === 0) continue;
      const used = usedOf(quota);
      const next = addLists(used, requested);
      const exceeded = [...requested.keys()].filter((k) => compareQuantities(next.get(k)!, hard.get(k)!) > 0);
      if (exceeded.length > 0) {
        return refused(admissionForbidden(a, `exceeded quota: ${quota.metadata?.name ?? ''}, requested: ${printList(only(requested, exceeded))}, ` +
          `used: ${printList(only(used, exceeded))}, limited: ${printList(only(hard, exceeded))}`));
      }
      const updated = structuredClone(quota);
      const status = (updated['status'] ??= {}) as Record<string, unknown>;
      status['used'] = { ...(asObject(status['used']) ?? {}), ...listToJson(only(next, requested.keys())) };
      charged.push(updated);
    }
    return charged;
  };

  const evaluate = async (a: AdmissionAttributes, evaluator: QuotaEvaluator, relevant: readonly LimitedResource[]): Promise<AdmissionResult> => {
    const registry = deps.registry();
    const def = registry.lookup('', 'v1', 'resourcequotas');
    const informer = await deps.informer('', 'resourcequotas');
    if (def === undefined || informer === undefined) return admitted;
    let quotas = currentQuotas(informer.listIn(a.namespace));
    for (let attempt = 0; ; attempt++) {
      const outcome = check(a, evaluator, quotas, relevant);
      if (!Array.isArray(outcome)) return outcome;
      if (a.dryRun || outcome.length === 0) return admitted;
      let conflicted = false;
      for (const next of outcome) {
        const current = quotas.find((q) => q.metadata?.name === next.metadata?.name)!;
        const result = await updateObject(registry, def, 'status', next, current, loopbackContext(registry.names, 'apiserver'));
        if (result.ok) {
          written.set(`${a.namespace}/${next.metadata?.name}`, result.value);
          continue;
        }
        if (!result.conflict || attempt >= maxConflictRetries) {
          return refused(admissionForbidden(a, `unable to charge quota ${next.metadata?.name ?? ''}: ${result.error.message ?? ''}`));
        }
        conflicted = true;
        break;
      }
      if (!conflicted) return admitted;
      // Another writer (the controller, another replica) moved a quota on: read the namespace's quotas live and redo.
      const listed = await registry.store.list(def, { namespace: a.namespace, selection: selectEverything });
      if (!listed.ok) return refused(admissionForbidden(a, listed.error.message ?? 'unable to read quotas'));
      quotas = listed.value.items;
    }
  };

  return ok({
    name: resourceQuotaPluginName,
    enabledByDefault: true,
    initialize: (d) => deps.set(d),
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    validate(a) {
      if (a.subresource !== '' || a.namespace === '' || a.object === undefined) return admitted;
      const evaluator = evaluatorFor(a.group, a.resource);
      if (!evaluator.handles(a.operation)) return admitted;
      const relevant = limited.filter((l) => l.apiGroup === a.group && l.resource === a.resource);
      // A namespace without quotas (the common case) is answered without waiting on anything.
      const synced = deps.syncedInformer('', 'resourcequotas');
      if (synced !== 'pending' && relevant.length === 0 && (synced?.listIn(a.namespace).length ?? 0) === 0) return admitted;
      return (async () => {
        const informer = await deps.informer('', 'resourcequotas');
        if (relevant.length === 0 && (informer?.listIn(a.namespace).length ?? 0) === 0) return admitted;
        return serialized(a.namespace, () => evaluate(a, evaluator, relevant));
      })();
    },
  });
}
