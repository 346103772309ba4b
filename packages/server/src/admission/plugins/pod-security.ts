/**
 * PodSecurity (plugin/pkg/admission/security/podsecurity, k8s.io/pod-security-admission): pods are checked
 * against the Pod Security Standards their namespace's labels select (`pod-security.<domain>/enforce`, `audit`,
 * `warn`, each with a `-version`; defaults and exemptions from the PodSecurityConfiguration). `enforce` refuses a
 * violating pod (403 `violates PodSecurity "restricted:latest": ...`), `warn` answers with a warning, `audit` adds
 * an audit annotation. Workload templates (Deployments, Jobs, ...) get warnings and audit annotations only. A
 * namespace's labels are validated, and a stricter enforce level on an existing namespace warns about the pods
 * already there that would violate it.
 */
import { type FieldError, invalid, type KubeObject, type Names, ok, type Result } from '@svc-apiserver/api';
import { admissionForbidden } from '../admission-errors.js';
import { annotationsOf, asObject, labelsOf, objectsOf, specOf, stringOf, type Json } from '../object-access.js';
import { configFields, configurationError, stringListField, versionedConfiguration } from '../plugin-configuration.js';
import { dependencyHolder } from '../plugin-dependencies.js';
import {
  admitted, refused, type AdmissionAttributes, type AdmissionResult, type InitializablePlugin, type PluginConfigurationError, type PluginInit,
} from '../plugin.js';
import { podSecurityEvaluator, type Evaluation } from '../pod-security/pod-security-evaluator.js';
import {
  levelError, levels, levelVersionString, parseLevel, parseVersion, policyToEvaluate, sameLevelVersion, versionError,
  type LevelVersion, type PodSecurityPolicy,
} from '../pod-security/policy-levels.js';

/** The plugin's name. */
export const podSecurityPluginName = 'PodSecurity';

/** Pod subresources that cannot change the pod spec (ignoredPodSubresources). */
const ignoredPodSubresources = new Set(['exec', 'attach', 'binding', 'eviction', 'log', 'portforward', 'proxy', 'status']);

/** Most pods of a namespace checked when its enforce level tightens (namespaceMaxPodsToCheck). */
const maxPodsToCheck = 3000;

/** The plugin's configuration (PodSecurityConfiguration). */
interface PodSecurityConfiguration {
  readonly defaults: PodSecurityPolicy;
  readonly exemptUsers: ReadonlySet<string>;
  readonly exemptNamespaces: ReadonlySet<string>;
  readonly exemptRuntimeClasses: ReadonlySet<string>;
}

/** Reads and validates the configuration; absent, everything is privileged and nothing exempt. */
function readConfiguration(names: Names, raw: unknown): Result<PodSecurityConfiguration, PluginConfigurationError> {
  const group = names.group('pod-security.admission.config');
  const read = versionedConfiguration(podSecurityPluginName, raw, ['v1', 'v1beta1', 'v1alpha1'].map((v) => `${group}/${v}`), 'PodSecurityConfiguration');
  if (!read.ok) return read;
  const doc = read.value ?? {};
  const defaults = configFields(doc['defaults']) ?? {};
  const errors: string[] = [];
  const mode = (key: 'enforce' | 'audit' | 'warn'): LevelVersion => {
    const levelText = defaults[key] ?? 'privileged';
    const versionText = defaults[`${key}-version`] ?? 'latest';
    const level = typeof levelText === 'string' ? parseLevel(levelText) : undefined;
    const version = typeof versionText === 'string' ? parseVersion(versionText) : undefined;
    if (level === undefined) errors.push(`defaults.${key}: Invalid value: ${JSON.stringify(levelText)}: ${levelError}`);
    if (version === undefined) errors.push(`defaults.${key}-version: Invalid value: ${JSON.stringify(versionText)}: ${versionError}`);
    return { level: level ?? 'privileged', version: version ?? { latest: true } };
  };
  const policy = { enforce: mode('enforce'), audit: mode('audit'), warn: mode('warn') };
  const exemptions = configFields(doc['exemptions']) ?? {};
  const lists = ['usernames', 'namespaces', 'runtimeClasses'].map((k) => {
    const list = stringListField(exemptions, k);
    if (list === undefined) errors.push(`exemptions.${k}: must be a list of strings`);
    return new Set(list ?? []);
  });
  if (errors.length > 0) return configurationError(podSecurityPluginName, errors.join('; '));
  return ok({ defaults: policy, exemptUsers: lists[0]!, exemptNamespaces: lists[1]!, exemptRuntimeClasses: lists[2]! });
}

/** Whether a resource is a workload with a pod template (PodSpecExtractor's kinds). */
function hasPodTemplate(group: string, resource: string): boolean {
  const apps = group === 'apps' && ['replicasets', 'deployments', 'statefulsets', 'daemonsets'].includes(resource);
  const core = group === '' && (resource === 'replicationcontrollers' || resource === 'podtemplates');
  const batch = group === 'batch' && (resource === 'jobs' || resource === 'cronjobs');
  return apps || core || batch;
}

/** The pod template of a workload (PodSpecExtractor), undefined for kinds without one. */
function templateOf(a: AdmissionAttributes): { metadata: unknown; spec: Json } | undefined | 'none' {
  if (!hasPodTemplate(a.group, a.resource)) return 'none';
  let template: Json | undefined;
  if (a.resource === 'podtemplates') template = asObject(a.object?.['template']);
  else if (a.resource === 'cronjobs') template = asObject(asObject(asObject(specOf(a.object)['jobTemplate'])?.['spec'])?.['template']);
  else template = asObject(specOf(a.object)['template']);
  if (template === undefined) return undefined;
  return { metadata: template['metadata'], spec: asObject(template['spec']) ?? {} };
}

/** isSignificantPodUpdate: images, seccomp annotations or containers changed. */
function significantPodUpdate(pod: KubeObject, old: KubeObject, seccompPodKey: string, seccompContainerPrefix: string): boolean {
  const annotations = annotationsOf(pod);
  const oldAnnotations = annotationsOf(old);
  if (annotations[seccompPodKey] !== oldAnnotations[seccompPodKey]) return true;
  const spec = specOf(pod);
  const oldSpec = specOf(old);
  const changed = (c: Json, o: Json): boolean => {
    if (c['image'] !== o['image']) return true;
    const key = seccompContainerPrefix + stringOf(c['name']);
    return annotations[key] !== oldAnnotations[key];
  };
  for (const list of ['containers', 'initContainers']) {
    const now = objectsOf(spec[list]);
    const before = objectsOf(oldSpec[list]);
    if (now.length !== before.length) return true;
    if (now.some((c, i) => changed(c, before[i]!))) return true;
  }
  const oldEphemeral = objectsOf(oldSpec['ephemeralContainers']);
  for (const c of objectsOf(spec['ephemeralContainers'])) {
    const o = oldEphemeral.find((x) => x['name'] === c['name']);
    if (o === undefined || changed(c, o)) return true;
  }
  return false;
}

/** Creates the plugin with its configuration. */
export function podSecurityPlugin(names: Names, init?: PluginInit): Result<InitializablePlugin, PluginConfigurationError> {
  const read = readConfiguration(names, init?.configuration(podSecurityPluginName));
  if (!read.ok) return read;
  const configuration = read.value;
  const deps = dependencyHolder(podSecurityPluginName);
  const evaluator = podSecurityEvaluator(names);
  const annotationKey = (k: string) => names.domain(k, 'pod-security');
  const seccompPodKey = names.domain('pod', 'seccomp.security.alpha');
  const seccompContainerPrefix = names.domain('', 'container.seccomp.security.alpha');

  const namespacePolicy = async (namespace: string) => {
    const d = deps.get();
    const ns = await d.getNamespace(namespace, { cached: true }) ?? await d.getNamespace(namespace);
    return policyToEvaluate(labelsOf(ns), configuration.defaults, names);
  };
  const annotate = (a: AdmissionAttributes, key: string, value: string) => a.recorder?.annotate(annotationKey(key), value, 'Metadata');
  const errorsText = (errors: readonly FieldError[]) =>
    (errors.length === 1 ? '' : '[') + errors.map((e) => `${e.field}: Invalid value: ${JSON.stringify(e.badValue)}: ${e.detail}`).join(', ') + (errors.length === 1 ? '' : ']');

  /** EvaluatePod: enforce (when asked), audit and warn, each level evaluated once. */
  const evaluatePod = (a: AdmissionAttributes, policy: PodSecurityPolicy, policyErrors: readonly FieldError[], metadata: unknown, spec: Json, enforce: boolean): AdmissionResult => {
    const runtimeClass = spec['runtimeClassName'];
    if (typeof runtimeClass === 'string' && configuration.exemptRuntimeClasses.has(runtimeClass)) {
      annotate(a, 'exempt', 'runtimeClass');
      return admitted;
    }
    if (policyErrors.length > 0) annotate(a, 'error', `Failed to parse policy: ${errorsText(policyErrors)}`);
    const annotations = annotationsOf({ metadata: asObject(metadata) ?? {} });
    const results: { lv: LevelVersion; result: Evaluation }[] = [];
    const evaluate = (lv: LevelVersion): Evaluation => {
      const cached = results.find((r) => sameLevelVersion(r.lv, lv));
      if (cached !== undefined) return cached.result;
      const result = evaluator.evaluate(lv, annotations, spec);
      results.push({ lv, result });
      return result;
    };
    if (enforce) {
      annotate(a, 'enforce-policy', levelVersionString(policy.enforce));
      const result = evaluate(policy.enforce);
      if (!result.allowed) {
        const audit = evaluate(policy.audit);
        if (!audit.allowed) annotate(a, 'audit-violations', `would violate PodSecurity "${levelVersionString(policy.audit)}": ${audit.detail}`);
        return refused(admissionForbidden(a, `violates PodSecurity "${levelVersionString(policy.enforce)}": ${result.detail}`));
      }
    }
    const audit = evaluate(policy.audit);
    if (!audit.allowed) annotate(a, 'audit-violations', `would violate PodSecurity "${levelVersionString(policy.audit)}": ${audit.detail}`);
    const warn = evaluate(policy.warn);
    if (!warn.allowed) a.recorder?.warn(`would violate PodSecurity "${levelVersionString(policy.warn)}": ${warn.detail}`);
    return admitted;
  };

  const validatePod = async (a: AdmissionAttributes): Promise<AdmissionResult> => {
    if (ignoredPodSubresources.has(a.subresource) || a.object === undefined) return admitted;
    if (configuration.exemptNamespaces.has(a.namespace)) {
      annotate(a, 'exempt', 'namespace');
      return admitted;
    }
    if (configuration.exemptUsers.has(a.user.username)) {
      annotate(a, 'exempt', 'user');
      return admitted;
    }
    const { policy, errors } = await namespacePolicy(a.namespace);
    if (errors.length === 0 && policy.enforce.level === 'privileged' && policy.audit.level === 'privileged' && policy.warn.level === 'privileged') {
      annotate(a, 'enforce-policy', levelVersionString(policy.enforce));
      return admitted;
    }
    if (a.operation === 'UPDATE' && a.oldObject !== undefined && !significantPodUpdate(a.object, a.oldObject, seccompPodKey, seccompContainerPrefix)) {
      return admitted;
    }
    return evaluatePod(a, policy, errors, a.object.metadata, specOf(a.object), true);
  };

  const validateTemplate = async (a: AdmissionAttributes, template: { metadata: unknown; spec: Json } | undefined): Promise<AdmissionResult> => {
    if (a.subresource !== '' || template === undefined) return admitted;
    if (configuration.exemptNamespaces.has(a.namespace) || configuration.exemptUsers.has(a.user.username)) return admitted;
    const { policy, errors } = await namespacePolicy(a.namespace);
    if (errors.length === 0 && policy.audit.level === 'privileged' && policy.warn.level === 'privileged') return admitted;
    return evaluatePod(a, policy, errors, template.metadata, template.spec, false);
  };

  /** The warnings about a namespace's pods under a new enforce level (EvaluatePodsInNamespace). */
  const evaluatePodsInNamespace = async (namespace: string, enforce: LevelVersion): Promise<string[]> => {
    const pods = (await deps.informer('', 'pods'))?.listIn(namespace) ?? [];
    const checked = pods.slice(0, maxPodsToCheck);
    const byReason = new Map<string, { first: string; count: number }>();
    for (const pod of checked) {
      const runtimeClass = specOf(pod)['runtimeClassName'];
      if (typeof runtimeClass === 'string' && configuration.exemptRuntimeClasses.has(runtimeClass)) continue;
      const r = evaluator.evaluate(enforce, annotationsOf(pod), specOf(pod));
      if (r.allowed) continue;
      const reason = r.reasons.join(', ');
      const name = pod.metadata?.name ?? '';
      const seen = byReason.get(reason);
      if (seen === undefined) byReason.set(reason, { first: name, count: 1 });
      else byReason.set(reason, { first: name < seen.first ? name : seen.first, count: seen.count + 1 });
    }
    const warnings: string[] = [];
    if (checked.length < pods.length) warnings.push(`new PodSecurity enforce level only checked against the first ${checked.length} of ${pods.length} existing pods`);
    if (byReason.size > 0) warnings.push(`existing pods in namespace "${namespace}" violate the new PodSecurity enforce level "${levelVersionString(enforce)}"`);
    const decorated = [...byReason].map(([reason, { first, count }]) =>
      count === 1 ? `${first}: ${reason}` : count === 2 ? `${first} (and 1 other pod): ${reason}` : `${first} (and ${count - 1} other pods): ${reason}`);
    return [...warnings, ...decorated.sort()];
  };

  const validateNamespace = async (a: AdmissionAttributes): Promise<AdmissionResult> => {
    if (a.subresource !== '' || a.object === undefined) return admitted;
    const next = policyToEvaluate(labelsOf(a.object), configuration.defaults, names);
    const reject = () => refused(invalid('Namespace', { group: '', resource: 'namespaces' }, a.object?.metadata?.name ?? a.name, next.errors));
    if (a.operation === 'CREATE') return next.errors.length > 0 ? reject() : admitted;
    const before = policyToEvaluate(labelsOf(a.oldObject), configuration.defaults, names);
    if (next.errors.length > 0 && (before.errors.length === 0 || errorsText(before.errors) !== errorsText(next.errors))) return reject();
    const [now, was] = [next.policy.enforce, before.policy.enforce];
    if (sameLevelVersion(now, was) || now.level === 'privileged') return admitted;
    if (sameLevelVersion({ ...now, level: 'privileged' }, { ...was, level: 'privileged' }) && levels.indexOf(now.level) <= levels.indexOf(was.level)) return admitted;
    if (configuration.exemptNamespaces.has(a.name)) return admitted;
    for (const w of await evaluatePodsInNamespace(a.name, now)) a.recorder?.warn(w);
    return admitted;
  };

  return ok({
    name: podSecurityPluginName,
    enabledByDefault: true,
    initialize: (d) => deps.set(d),
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    actsOn: (group, resource) => (group === '' && (resource === 'namespaces' || resource === 'pods')) || hasPodTemplate(group, resource),
    validate(a) {
      if (a.group === '' && a.resource === 'namespaces') return validateNamespace(a);
      if (a.group === '' && a.resource === 'pods') return validatePod(a);
      const template = templateOf(a);
      if (template === 'none') return admitted;
      return validateTemplate(a, template);
    },
  });
}
