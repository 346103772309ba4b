/**
 * ValidatingAdmissionPolicy (k8s.io/apiserver/pkg/admission/plugin/validatingadmissionpolicy, document 3
 * §Admission controllers): with the ValidatingAdmissionPolicy gate and `admissionregistration/v1alpha1` served,
 * every request a policy's `matchConstraints` and a binding's `matchResources` select is validated by the policy's
 * expressions, with the binding's `params` (an object of the policy's `paramKind`, built-in or custom). Each
 * failure is acted on as the binding says: Deny fails the request (the first denial: `ValidatingAdmissionPolicy
 * '<policy>' with binding '<binding>' denied request: <message>`, the validation's reason and its code, 422
 * Invalid by default), Warn adds a `Warning` header, Audit records the failures in the audit annotation
 * `validation.policy.admission.<suffix>/validation_failure`. Policies and bindings are read from informers, so a
 * change applies as soon as the watch cache has it; each policy generation is compiled once, and its
 * `status.typeChecking` is written once per generation. What a request is matched against is prepared once per
 * change of the policies or bindings (kube's policy source keeps its compiled policies and bindings the same way):
 * the policies with bindings in name order, each with its bindings, and indexed by the resources and operations
 * their rules name, so a request only looks at policies that could select it. Writes of the admission
 * configuration kinds are exempt.
 */
import { fail, type KubeObject, type Names, ok, type Result, type Status, type StatusReason, statusReasonCodes } from '@svc-apiserver/api';
import { anonymousAuthInfo } from '../../outbound/auth-info-resolver.js';
import type { Informer } from '../../registry/informer.js';
import { loopbackContext } from '../../registry/operations/loopback.js';
import { updateObject } from '../../registry/operations/update-object.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { createMetricsRegistry } from '../../metrics/metrics-registry.js';
import { admissionForbidden } from '../admission-errors.js';
import { admissionMetrics } from '../admission-metrics.js';
import { admissionExpressionValues } from '../expressions/admission-activation.js';
import { dependencyHolder, type DependencyHolder } from '../plugin-dependencies.js';
import { admitted, refused, type AdmissionAttributes, type AdmissionResult, type InitializablePlugin, type PluginInit } from '../plugin.js';
import { bindingOf, policyOf, type NamedRule, type Policy, type PolicyBinding, type ValidationAction } from '../validating-admission-policy/policy-accessor.js';
import { compilePolicy, evaluatePolicy, type CompiledPolicy, type PolicyFailure } from '../validating-admission-policy/policy-evaluator.js';
import { matchResources } from '../validating-admission-policy/policy-matcher.js';
import { typeCheckPolicy } from '../validating-admission-policy/type-checking.js';
import { exemptFromWebhooks } from '../webhooks/webhook-dispatch.js';
import { webhookEnvironment } from '../webhooks/webhook-environment.js';
import type { MatchContext } from '../webhooks/webhook-matcher.js';

/** The plugin's name. */
export const validatingAdmissionPolicyPluginName = 'ValidatingAdmissionPolicy';

/** One failure of one binding, for the Deny answer and the Audit annotation. */
interface BindingFailure {
  readonly policy: string;
  readonly binding: string;
  readonly failure: PolicyFailure;
  readonly actions: readonly ValidationAction[];
}

/** A policy with bindings, as requests are matched against it. */
interface BoundPolicy {
  readonly compiled: CompiledPolicy;
  /** Its bindings, in name order. */
  readonly bindings: readonly PolicyBinding[];
  /** The resources its rules name (`*` for any), and whether it matches through equivalent resources too. */
  readonly resources: ReadonlySet<string>;
  readonly operations: ReadonlySet<string>;
  readonly equivalent: boolean;
}

/** The resource names and operations of rules (the part of a `resources` entry before its `/`). */
function ruleIndex(rules: readonly NamedRule[]): { resources: Set<string>; operations: Set<string> } {
  const resources = new Set<string>();
  const operations = new Set<string>();
  for (const r of rules) {
    for (const res of r.resources) resources.add(res.split('/')[0]!);
    for (const op of r.operations) operations.add(op);
  }
  return { resources, operations };
}

/**
 * Whether a policy could select the request: a rule names its operation and its resource (or one the resource is
 * stored with, under Equivalent matching). The full match decides; this only leaves out what cannot match.
 */
function mayMatch(p: BoundPolicy, a: AdmissionAttributes, match: MatchContext): boolean {
  if (!p.operations.has('*') && !p.operations.has(a.operation)) return false;
  if (p.resources.has('*') || p.resources.has(a.resource)) return true;
  return p.equivalent && match.equivalents(a.group, a.version, a.resource).others.some((d) => p.resources.has(d.resource));
}

/** The params of a binding, or the configuration error that stands in for them. */
type Params = Result<unknown, string>;

const isReason = (r: string): r is StatusReason => Object.hasOwn(statusReasonCodes, r);

/** The refusal kube gives a denied request: admission.NewForbidden with the validation's reason and code. */
function denial(a: AdmissionAttributes, f: BindingFailure): Status {
  const message = `ValidatingAdmissionPolicy '${f.policy}' with binding '${f.binding}' denied request: ${f.failure.message}`;
  const base = admissionForbidden(a, message);
  const reason: StatusReason = isReason(f.failure.reason) ? f.failure.reason : 'Invalid';
  return { ...base, reason, code: statusReasonCodes[reason], details: { ...base.details, causes: [{ message }] } };
}

/** The served definition of a `paramKind` (apiVersion and kind). */
function paramDef(deps: DependencyHolder, apiVersion: string, kind: string): ResourceDef | undefined {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  return deps.registry().all().find((d) => d.group === group && d.version === version && d.kind === kind);
}

/** Creates the plugin. */
export function validatingAdmissionPolicyPlugin(names: Names, init?: PluginInit): InitializablePlugin {
  const enabled = init?.featureGates?.ValidatingAdmissionPolicy === true;
  const deps = dependencyHolder(validatingAdmissionPolicyPluginName);
  const group = names.group('admissionregistration');
  const failureAnnotation = `validation.policy.${names.group('admission')}/validation_failure`;
  const compiled = new Map<string, { readonly resourceVersion: string; readonly policy: CompiledPolicy }>();
  let match: MatchContext | undefined;
  let stopTypeChecking: (() => void) | undefined;
  /** The policies requests are matched against; rebuilt on the first request after a change. */
  let bound: readonly BoundPolicy[] | undefined;
  let unsubscribe: (() => void)[] | undefined;

  const compiledPolicy = (object: KubeObject): CompiledPolicy => {
    const key = object.metadata?.uid ?? object.metadata?.name ?? '';
    const rv = object.metadata?.resourceVersion ?? '';
    const cached = compiled.get(key);
    if (cached !== undefined && cached.resourceVersion === rv) return cached.policy;
    const policy = compilePolicy(policyOf(object));
    if (compiled.size > 10_000) compiled.clear();
    compiled.set(key, { resourceVersion: rv, policy });
    return policy;
  };

  const params = async (policy: Policy, binding: PolicyBinding): Promise<Params> => {
    if (policy.paramKind === undefined) return ok(undefined);
    const def = paramDef(deps, policy.paramKind.apiVersion, policy.paramKind.kind);
    if (def === undefined) {
      return fail(`failed to find resource referenced by paramKind: '${policy.paramKind.apiVersion}, Kind=${policy.paramKind.kind}'`);
    }
    if (binding.paramRef === undefined) return ok(null);
    const informer = await deps.informer(def.group, def.resource);
    const found = informer?.get(def.namespaced ? binding.paramRef.namespace : '', binding.paramRef.name);
    if (found === undefined) {
      return fail(`${def.resource}${def.group === '' ? '' : `.${def.group}`} "${binding.paramRef.name}" not found`);
    }
    return ok(found);
  };

  const boundPolicies = (policies: Informer, bindings: Informer): readonly BoundPolicy[] => {
    if (unsubscribe === undefined) {
      const invalidate = (): void => {
        bound = undefined;
      };
      unsubscribe = [policies.onChange(invalidate), bindings.onChange(invalidate)];
    }
    if (bound !== undefined) return bound;
    const byPolicy = new Map<string, PolicyBinding[]>();
    for (const b of bindings.list().map(bindingOf)) byPolicy.set(b.policyName, [...(byPolicy.get(b.policyName) ?? []), b]);
    const next: BoundPolicy[] = [];
    const objects = policies.list().sort((x, y) => ((x.metadata?.name ?? '') < (y.metadata?.name ?? '') ? -1 : 1));
    for (const object of objects) {
      const compiledOne = compiledPolicy(object);
      const constraints = compiledOne.policy.matchConstraints;
      const own = byPolicy.get(compiledOne.policy.name);
      if (own === undefined || constraints === undefined) continue;
      next.push({
        compiled: compiledOne, bindings: own.sort((x, y) => (x.name < y.name ? -1 : 1)), ...ruleIndex(constraints.resourceRules),
        equivalent: constraints.matchPolicy === 'Equivalent',
      });
    }
    bound = next;
    return next;
  };

  /** Writes `status.typeChecking` of each policy generation not yet checked (the type checker's loop). */
  const startTypeChecking = (policies: Informer): void => {
    if (stopTypeChecking !== undefined) return;
    const check = async (object: KubeObject): Promise<void> => {
      const generation = object.metadata?.generation ?? 0;
      const status = (object['status'] ?? {}) as { observedGeneration?: number };
      if (status.observedGeneration === generation) return;
      const registry = deps.registry();
      const warnings = typeCheckPolicy(policyOf(object), (g, v, r) => registry.lookup(g, v, r));
      const next = {
        ...structuredClone(object),
        status: { ...status, observedGeneration: generation, typeChecking: warnings.length > 0 ? { expressionWarnings: warnings } : {} },
      } as KubeObject;
      await updateObject(registry, policies.def, 'status', next, object, loopbackContext(registry.names, 'apiserver'));
    };
    stopTypeChecking = policies.onChange((change, object) => {
      if (change !== 'DELETED') void check(object).catch(() => undefined);
    }, { replay: true });
  };

  return {
    name: validatingAdmissionPolicyPluginName,
    enabledByDefault: true,
    initialize(d) {
      deps.set(d);
      match = webhookEnvironment(names, init?.metrics ?? admissionMetrics(createMetricsRegistry()), deps, anonymousAuthInfo).match;
      if (enabled) {
        void deps.informer(group, 'validatingadmissionpolicies').then((i) => {
          if (i !== undefined) startTypeChecking(i);
        }).catch(() => undefined);
      }
    },
    handles: () => enabled,
    validate(a) {
      if (!enabled || match === undefined || exemptFromWebhooks(a, group)) return admitted;
      // A request no policy could select (the common case) is answered without waiting on anything.
      const policies = deps.syncedInformer(group, 'validatingadmissionpolicies');
      const bindings = deps.syncedInformer(group, 'validatingadmissionpolicybindings');
      if (policies === undefined || bindings === undefined) return admitted;
      const m = match;
      if (policies === 'pending' || bindings === 'pending') return validateSelected(a, m);
      const candidates = boundPolicies(policies, bindings);
      if (!candidates.some((c) => mayMatch(c, a, m))) return admitted;
      return validateCandidates(a, m, candidates);
    },
    close() {
      stopTypeChecking?.();
      for (const u of unsubscribe ?? []) u();
    },
  };

  /** {@link validateCandidates} once the policy and binding informers have synced. */
  async function validateSelected(a: AdmissionAttributes, match: MatchContext): Promise<AdmissionResult> {
    const policies = await deps.informer(group, 'validatingadmissionpolicies');
    const bindings = await deps.informer(group, 'validatingadmissionpolicybindings');
    if (policies === undefined || bindings === undefined) return admitted;
    return validateCandidates(a, match, boundPolicies(policies, bindings));
  }

  /** The policies of `candidates` that may select the request, evaluated with each of their bindings. */
  async function validateCandidates(a: AdmissionAttributes, match: MatchContext, candidates: readonly BoundPolicy[]): Promise<AdmissionResult> {
    if (candidates.length === 0) return admitted;
    const failures: BindingFailure[] = [];
    for (const candidate of candidates) {
      if (!mayMatch(candidate, a, match)) continue;
      const compiledOne = candidate.compiled;
      const policy = compiledOne.policy;
      const matched = await matchResources(policy.matchConstraints!, a, match, policy.name);
      if (!matched.ok) return refused(matched.error);
      const target = matched.value;
      if (target === undefined) continue;
      for (const binding of candidate.bindings) {
        if (binding.matchResources !== undefined) {
          const m = await matchResources(binding.matchResources, a, match, binding.name, true);
          if (!m.ok) return refused(m.error);
          if (m.value === undefined) continue;
        }
        const p = await params(policy, binding);
        let outcomeFailures: readonly PolicyFailure[];
        if (!p.ok) {
          outcomeFailures = policy.failurePolicy === 'Fail' ? [{ message: `configuration error: ${p.error}`, reason: 'Invalid' }] : [];
        } else {
          const values = admissionExpressionValues(a, deps.authorizer(), target, policy.paramKind !== undefined ? p.value : undefined);
          const outcome = await evaluatePolicy(compiledOne, values);
          for (const [key, value] of outcome.auditAnnotations) a.recorder?.annotate(`${policy.name}/${key}`, value, 'Metadata');
          outcomeFailures = outcome.failures;
        }
        for (const failure of outcomeFailures) {
          const f: BindingFailure = { policy: policy.name, binding: binding.name, failure, actions: binding.validationActions };
          if (binding.validationActions.includes('Warn')) {
            a.recorder?.warn(`Validation failed for ValidatingAdmissionPolicy '${policy.name}' with binding '${binding.name}': ${failure.message}`);
          }
          failures.push(f);
        }
      }
    }
    const audited = failures.filter((f) => f.actions.includes('Audit'));
    if (audited.length > 0) {
      a.recorder?.annotate(failureAnnotation, JSON.stringify(audited.map((f) => ({
        message: f.failure.message, policy: f.policy, binding: f.binding,
        ...(f.failure.expressionIndex !== undefined ? { expressionIndex: f.failure.expressionIndex } : {}), validationActions: f.actions,
      }))), 'Metadata');
    }
    const denied = failures.find((f) => f.actions.includes('Deny'));
    return denied === undefined ? admitted : refused(denial(a, denied));
  }
}
