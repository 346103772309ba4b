/**
 * Whether a webhook is called for a request (k8s.io/apiserver/pkg/admission/plugin/webhook/generic ShouldCallHook
 * and its rules, namespace and object matchers):
 *
 * - a rule matches by operation (`*` for all; CONNECT only when named), API group and version (`*`), resource (`*`
 *   for every resource without subresources, `*\/*` for everything, `pods/*`, `*\/status`) and scope (`Cluster`,
 *   `Namespaced`, `*`; a Namespace object is cluster-scoped);
 * - the namespace selector is matched against the labels of the request's namespace (a Namespace's own labels when
 *   it is created or updated); cluster-scoped requests other than namespaces are always in;
 * - the object selector is matched against the object and the old object, either sufficing; an object that cannot
 *   carry labels does not match;
 * - with `matchPolicy: Equivalent`, a request that no rule matches is matched again through the other versions and
 *   groups the resource is served in, and the webhook is then shown the object in the matching version.
 *
 * Match conditions are left to a hook the caller passes (the expression-language engine evaluates them).
 */
import { fail, type KubeObject, matchesLabels, notFound, ok, type Result, type Status } from '@svc-apiserver/api';
import { subresourceKind } from '../../registry/operations/admission-attributes.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { admissionInternalError } from '../admission-errors.js';
import { labelsOf } from '../object-access.js';
import type { AdmissionAttributes } from '../plugin.js';
import type { ParsedSelector, WebhookAccessor, WebhookRule } from './webhook-accessor.js';

/** The resource a webhook is called for: the request's, or an equivalent one it matched through. */
export interface Invocation {
  readonly webhook: WebhookAccessor;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly kind: { readonly group: string; readonly version: string; readonly kind: string };
  /** The served definition of the invocation's resource, when it differs from the request's (conversion needed). */
  readonly equivalentOf?: { readonly from: ResourceDef; readonly to: ResourceDef };
}

/** What matching needs from the server. */
export interface MatchContext {
  /** The labels of a namespace, or a 404 Status when it does not exist. */
  namespaceLabels(name: string): Promise<Result<Record<string, string>>>;
  /** The served definitions of the request's resource and of the resources stored with it. */
  equivalents(group: string, version: string, resource: string): { readonly self?: ResourceDef; readonly others: readonly ResourceDef[] };
}

/** The answer of matching that calls no webhook. */
const noCall = ok(undefined);

/** The request's resource as a rule sees it. */
interface RuleTarget {
  readonly operation: string;
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
}

const inList = (list: readonly string[], value: string): boolean => list.includes('*') || list.includes(value);

/** rules.Matcher.Matches. */
export function ruleMatches(rule: WebhookRule, t: RuleTarget): boolean {
  if (!inList(rule.operations, t.operation)) return false;
  if (!inList(rule.apiGroups, t.group) || !inList(rule.apiVersions, t.version)) return false;
  const resourceMatches = rule.resources.some((r) => {
    if (r === '*/*') return true;
    const slash = r.indexOf('/');
    if (slash < 0) return (r === '*' || r === t.resource) && t.subresource === '';
    const res = r.slice(0, slash);
    const sub = r.slice(slash + 1);
    return (res === '*' || res === t.resource) && (sub === '*' || sub === t.subresource);
  });
  if (!resourceMatches) return false;
  const isNamespaceObject = t.group === '' && t.resource === 'namespaces';
  switch (rule.scope) {
    case 'Namespaced': return !isNamespaceObject && t.namespace !== '';
    case 'Cluster': return isNamespaceObject || t.namespace === '';
    default: return true;
  }
}

/** A parsed selector against labels; an invalid selector matches nothing. */
export function selectorMatches(selector: ParsedSelector, labels: Readonly<Record<string, string>>): boolean {
  if (selector === 'everything') return true;
  if (selector === 'nothing' || 'invalid' in selector) return false;
  return matchesLabels(selector, labels);
}

/** Whether an object can carry labels (has metadata). */
const labelled = (o: KubeObject | undefined): boolean => o !== undefined && typeof o.metadata === 'object' && o.metadata !== null;

/** MatchNamespaceSelector. */
async function namespaceMatches(w: WebhookAccessor, a: AdmissionAttributes, ctx: MatchContext): Promise<Result<boolean>> {
  const isNamespace = a.group === '' && a.resource === 'namespaces';
  if (a.namespace === '' && !isNamespace) return ok(true);
  if (w.namespaceSelector === 'everything') return ok(true);
  if (typeof w.namespaceSelector === 'object' && 'invalid' in w.namespaceSelector) {
    return fail(admissionInternalError(`webhook ${w.name}: invalid namespaceSelector: ${w.namespaceSelector.invalid}`));
  }
  const labels = isNamespace && a.subresource === '' && (a.operation === 'CREATE' || a.operation === 'UPDATE')
    ? ok(labelsOf(a.object))
    : await ctx.namespaceLabels(isNamespace ? a.name : a.namespace);
  if (!labels.ok) return labels;
  return ok(selectorMatches(w.namespaceSelector, labels.value));
}

/** MatchObjectSelector. */
function objectMatches(w: WebhookAccessor, a: AdmissionAttributes): boolean {
  if (w.objectSelector === 'everything') return true;
  const test = (o: KubeObject | undefined) => labelled(o) && selectorMatches(w.objectSelector, labelsOf(o));
  return test(a.object) || test(a.oldObject);
}

/** ShouldCallHook, without match conditions: the invocation to make, none, or the failure to decide. */
export async function shouldCallWebhook(w: WebhookAccessor, a: AdmissionAttributes, ctx: MatchContext): Promise<Result<Invocation | undefined>> {
  const ns = await namespaceMatches(w, a, ctx);
  if (ns.ok && !ns.value) return noCall;
  if (!objectMatches(w, a)) return noCall;
  const target: RuleTarget = { operation: a.operation, group: a.group, version: a.version, resource: a.resource, subresource: a.subresource, namespace: a.namespace };
  const requestKind = { group: a.kindGroupVersion?.group ?? a.group, version: a.kindGroupVersion?.version ?? a.version, kind: a.kind };
  let invocation: Invocation | undefined;
  if (w.rules.some((r) => ruleMatches(r, target))) {
    invocation = { webhook: w, group: a.group, version: a.version, resource: a.resource, subresource: a.subresource, kind: requestKind };
  } else if (w.matchPolicy === 'Equivalent') {
    const { self, others } = ctx.equivalents(a.group, a.version, a.resource);
    outer: for (const rule of w.rules) {
      for (const def of others) {
        if (!ruleMatches(rule, { ...target, group: def.group, version: def.version, resource: def.resource })) continue;
        const kind = subresourceKind(def, a.subresource);
        invocation = {
          webhook: w, group: def.group, version: def.version, resource: def.resource, subresource: a.subresource, kind,
          // A subresource served as its own kind (Scale) is the same object in every version of the resource.
          ...(self !== undefined && kind.kind === def.kind ? { equivalentOf: { from: self, to: def } } : {}),
        };
        break outer;
      }
    }
  }
  if (invocation === undefined) return noCall;
  if (!ns.ok) return ns;
  return ok(invocation);
}

/** The 404 a namespace lookup answers for a namespace that does not exist. */
export const namespaceNotFound = (name: string): Status => notFound({ group: '', resource: 'namespaces' }, name);
