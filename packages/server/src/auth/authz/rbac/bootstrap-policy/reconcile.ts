/**
 * The reconciliation of default RBAC objects with what is stored (kube's pkg/registry/rbac/reconciliation, as the
 * `rbac/bootstrap-roles` post-start hook uses it, never removing anything): missing rules (or, for aggregated roles,
 * missing aggregation selectors), labels, annotations and subjects are added back; a binding whose roleRef differs
 * is recreated; an object annotated autoupdate `"false"` is protected and left alone.
 */
import type { KubeObject } from '@svc-apiserver/api';
import type { BindingObject, MetaLabelSelector, PolicyRule, RoleObject, Subject } from '../../../../registry/resources/rbac-types.js';

/** What to do with one stored object. */
export type ReconcileOperation = 'none' | 'update' | 'recreate';

/** A reconciliation's outcome: the object to write (for `update`/`recreate`) unless `protected`. */
export interface Reconciled<T extends KubeObject> {
  readonly operation: ReconcileOperation;
  readonly object: T;
  /** The stored object is annotated autoupdate "false": nothing is written. */
  readonly protected: boolean;
}

const has = (list: readonly string[] | undefined, value: string): boolean => (list ?? []).includes(value);

/** One indivisible permission of a rule (validation.BreakdownRule). */
function breakdown(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        if ((rule.resourceNames ?? []).length === 0) out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
        for (const name of rule.resourceNames ?? []) out.push({ apiGroups: [group], resources: [resource], resourceNames: [name], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

function resourceCovered(owner: readonly string[], resource: string): boolean {
  if (has(owner, '*') || has(owner, resource)) return true;
  const slash = resource.indexOf('/');
  return slash >= 0 && has(owner, `*/${resource.slice(slash + 1)}`);
}

function urlCovered(owner: readonly string[], url: string): boolean {
  return owner.some((o) => o === '*' || o === url || (o.endsWith('*') && url.startsWith(o.slice(0, -1))));
}

/** validation.ruleCovers: `owner` grants the single permission `atom`. */
function ruleCovers(owner: PolicyRule, atom: PolicyRule): boolean {
  if (!(has(owner.verbs, '*') || has(owner.verbs, atom.verbs[0]!))) return false;
  if ((atom.nonResourceURLs ?? []).length > 0) return urlCovered(owner.nonResourceURLs ?? [], atom.nonResourceURLs![0]!);
  if (!(has(owner.apiGroups, '*') || has(owner.apiGroups, atom.apiGroups![0]!))) return false;
  if (!resourceCovered(owner.resources ?? [], atom.resources![0]!)) return false;
  const names = owner.resourceNames ?? [];
  return names.length === 0 || (atom.resourceNames !== undefined && has(names, atom.resourceNames[0]!));
}

/** The rules of `servant` that `owner` does not cover (validation.Covers' uncovered rules), per permission. */
export function uncoveredRules(owner: readonly PolicyRule[], servant: readonly PolicyRule[]): PolicyRule[] {
  const missing: PolicyRule[] = [];
  for (const rule of servant) for (const atom of breakdown(rule)) if (!owner.some((o) => ruleCovers(o, atom))) missing.push(atom);
  return missing;
}

const selectorKey = (s: MetaLabelSelector): string => JSON.stringify({ l: Object.entries(s.matchLabels ?? {}).sort(), e: s.matchExpressions ?? [] });

const subjectKey = (s: Subject): string => JSON.stringify([s.kind, s.apiGroup ?? '', s.name, s.namespace ?? '']);

/** Adds the entries of `expected` whose keys `existing` lacks (existing values win); undefined when none is missing. */
function mergeMissing(existing: Record<string, string> | undefined, expected: Record<string, string> | undefined): Record<string, string> | undefined {
  let out: Record<string, string> | undefined;
  for (const [k, v] of Object.entries(expected ?? {})) {
    if (existing !== undefined && Object.prototype.hasOwnProperty.call(existing, k)) continue;
    out ??= { ...(existing ?? {}) };
    out[k] = v;
  }
  return out;
}

function isProtected(existing: KubeObject, autoupdate: string): boolean {
  return existing.metadata?.annotations?.[autoupdate] === 'false';
}

/** Adds back missing labels and annotations; true when something changed. */
function reconcileMeta(target: KubeObject, expected: KubeObject): boolean {
  const meta = (target.metadata ??= {});
  const labels = mergeMissing(meta.labels, expected.metadata?.labels);
  const annotations = mergeMissing(meta.annotations, expected.metadata?.annotations);
  if (labels !== undefined) meta.labels = labels;
  if (annotations !== undefined) meta.annotations = annotations;
  return labels !== undefined || annotations !== undefined;
}

/** computeReconciledRole without removal of extra permissions. */
export function reconcileRole(existing: RoleObject, expected: RoleObject, autoupdate: string): Reconciled<RoleObject> {
  const out = structuredClone(existing);
  let changed = reconcileMeta(out, expected);
  const expectedSelectors = expected.aggregationRule?.clusterRoleSelectors ?? undefined;
  if (expected.aggregationRule == null && existing.aggregationRule != null) {
    // Not an aggregated role by default: the aggregation is removed, as kube does.
    delete out.aggregationRule;
    changed = true;
  } else if (expectedSelectors !== undefined) {
    const present = new Set((existing.aggregationRule?.clusterRoleSelectors ?? []).map(selectorKey));
    const missing = expectedSelectors.filter((s) => !present.has(selectorKey(s)));
    if (missing.length > 0) {
      out.aggregationRule = { clusterRoleSelectors: [...(existing.aggregationRule?.clusterRoleSelectors ?? []), ...missing] };
      changed = true;
    }
  }
  const missingRules = uncoveredRules(existing.rules ?? [], expected.rules ?? []);
  if (missingRules.length > 0) {
    out.rules = [...(existing.rules ?? []), ...missingRules];
    changed = true;
  }
  return { operation: changed ? 'update' : 'none', object: out, protected: isProtected(existing, autoupdate) };
}

/** computeReconciledRoleBinding without removal of extra subjects. */
export function reconcileBinding(existing: BindingObject, expected: BindingObject, autoupdate: string): Reconciled<BindingObject> {
  const out = structuredClone(existing);
  let operation: ReconcileOperation = reconcileMeta(out, expected) ? 'update' : 'none';
  const ref = existing.roleRef;
  if (ref.apiGroup !== expected.roleRef.apiGroup || ref.kind !== expected.roleRef.kind || ref.name !== expected.roleRef.name) {
    // roleRef is immutable: the binding is deleted and created again with the expected roleRef.
    out.roleRef = { ...expected.roleRef };
    operation = 'recreate';
  }
  const present = new Set((existing.subjects ?? []).map(subjectKey));
  const missing = (expected.subjects ?? []).filter((s) => !present.has(subjectKey(s)));
  if (missing.length > 0) {
    out.subjects = [...(existing.subjects ?? []), ...missing];
    if (operation === 'none') operation = 'update';
  }
  return { operation, object: out, protected: isProtected(existing, autoupdate) };
}
