/**
 * The pod spec's defaults and checks shared by Pods and every pod template (ReplicationController, Deployment,
 * ReplicaSet, DaemonSet, StatefulSet, Job, CronJob, PodTemplate): kube 1.27's SetDefaults_PodSpec, SetDefaults_Container
 * and friends (pkg/apis/core/v1/defaults.go, with quantities in canonical form), ValidatePodSpec with the validation
 * options a stored object relaxes (its parts in volume-sources.ts, pod-containers.ts, pod-scheduling.ts and
 * pod-security.ts), the pod-specific annotation checks and ValidatePodTemplateSpec.
 */
import { fieldError, type FieldError, type Names } from '@svc-apiserver/api';
import { validateAnnotations, validateLabels } from '../../meta/object-meta-validation.js';
import { defaultFeatureGates, type FeatureGates } from '../../feature-gates.js';
import { record } from '../conversion/resource-conversion.js';
import { child, setDefault } from './object-fields.js';
import { dns1123Label, dns1123Subdomain, inclusiveRange, isSet, list, num, obj, objects, oneOf, text, type Json } from './field-checks.js';
import { hasInvalidLabelValue, validateLabelMap } from './label-checks.js';
import { canonicalizeResourceList, hasIndivisibleHugePages, resourceRequirementsErrors } from './resource-names.js';
import { podVolumeSourceErrors, podVolumeSourceFields } from './volume-sources.js';
import { containerClaimErrors, podResourceClaimErrors } from './pod-resource-claims.js';
import { defaultClaimSpec } from './persistentvolumeclaims.js';
import { containersErrors, ephemeralContainersErrors, initContainersErrors } from './pod-containers.js';
import {
  affinityErrors, dnsConfigErrors, hasInvalidTopologySpreadSelector, hostAliasErrors, readinessGateErrors, schedulingGateErrors,
  tolerationErrors, topologySpreadErrors,
} from './pod-scheduling.js';
import {
  hostProcessErrors, osErrors, podNamespaceErrors, podSecurityContextErrors, seccompAnnotationFieldErrors, securityAnnotationErrors,
  type SecurityAnnotationKeys,
} from './pod-security.js';

export { validateLabelMap, validateLabelSelector, selectorMatches } from './label-checks.js';
export { child, immutable, sameJson, setDefault, specOf } from './object-fields.js';

/**
 * kube's image pull policy default (parsers.ParseImageName's tag): `Always` for `:latest` or an untagged reference,
 * else `IfNotPresent`, also for an image that is no reference at all (the parse error leaves no tag).
 */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  const slash = image.indexOf('/');
  const path = slash >= 0 && /[.:]|^localhost$/.test(image.slice(0, slash)) ? image.slice(slash + 1) : image;
  if (image === '' || /[A-Z\s]/.test(path)) return 'IfNotPresent';
  if (image.includes('@')) return 'IfNotPresent';
  const lastSlash = image.lastIndexOf('/');
  const colon = image.indexOf(':', lastSlash + 1);
  if (colon < 0) return 'Always';
  return image.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent';
}

/** A quantity field rewritten in canonical form (the Quantity round trip), when it parses. */
function canonicalQuantityField(object: Json, key: string): void {
  if (object[key] === undefined) return;
  const holder = { [key]: object[key] };
  canonicalizeResourceList(holder);
  object[key] = holder[key];
}

function defaultProbe(probe: unknown): void {
  const p = record(probe);
  if (p === undefined) return;
  setDefault(p, 'timeoutSeconds', 1);
  setDefault(p, 'periodSeconds', 10);
  setDefault(p, 'successThreshold', 1);
  setDefault(p, 'failureThreshold', 3);
  const http = record(p['httpGet']);
  if (http !== undefined) {
    setDefault(http, 'path', '/');
    setDefault(http, 'scheme', 'HTTP');
  }
}

function defaultContainer(container: unknown): void {
  const c = record(container);
  if (c === undefined) return;
  setDefault(c, 'imagePullPolicy', defaultPullPolicy(typeof c['image'] === 'string' ? c['image'] : ''));
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  setDefault(c, 'resources', {});
  const resources = record(c['resources']);
  canonicalizeResourceList(resources?.['limits']);
  canonicalizeResourceList(resources?.['requests']);
  for (const port of Array.isArray(c['ports']) ? c['ports'] : []) {
    const p = record(port);
    if (p !== undefined) setDefault(p, 'protocol', 'TCP');
  }
  for (const env of Array.isArray(c['env']) ? c['env'] : []) {
    const ref = record(record(record(env)?.['valueFrom'])?.['fieldRef']);
    if (ref !== undefined) setDefault(ref, 'apiVersion', 'v1');
    const resourceRef = record(record(record(env)?.['valueFrom'])?.['resourceFieldRef']);
    if (resourceRef !== undefined) canonicalQuantityField(resourceRef, 'divisor');
  }
  defaultProbe(c['livenessProbe']);
  defaultProbe(c['readinessProbe']);
  defaultProbe(c['startupProbe']);
  const lifecycle = record(c['lifecycle']);
  for (const hook of ['postStart', 'preStop']) {
    const http = record(record(lifecycle?.[hook])?.['httpGet']);
    if (http !== undefined) {
      setDefault(http, 'path', '/');
      setDefault(http, 'scheme', 'HTTP');
    }
  }
}

function defaultVolume(volume: unknown): void {
  const v = record(volume);
  if (v === undefined) return;
  // SetDefaults_Volume: a volume naming no source is an emptyDir.
  if (!podVolumeSourceFields.some((f) => v[f] !== undefined && v[f] !== null)) v['emptyDir'] = {};
  const emptyDir = record(v['emptyDir']);
  if (emptyDir !== undefined) canonicalQuantityField(emptyDir, 'sizeLimit');
  // SetDefaults_PersistentVolumeClaimSpec reaches the claim template of an ephemeral volume.
  const claimSpec = record(record(record(v['ephemeral'])?.['volumeClaimTemplate'])?.['spec']);
  if (claimSpec !== undefined) defaultClaimSpec(claimSpec);
  for (const source of ['secret', 'configMap', 'downwardAPI', 'projected']) {
    const s = record(v[source]);
    if (s !== undefined) setDefault(s, 'defaultMode', 420);
  }
  for (const projection of Array.isArray(record(v['projected'])?.['sources']) ? record(v['projected'])!['sources'] as unknown[] : []) {
    const token = record(record(projection)?.['serviceAccountToken']);
    if (token !== undefined) setDefault(token, 'expirationSeconds', 3600);
    for (const item of Array.isArray(record(record(projection)?.['downwardAPI'])?.['items']) ? record(record(projection)!['downwardAPI'])!['items'] as unknown[] : []) {
      const ref = record(record(item)?.['fieldRef']);
      if (ref !== undefined) setDefault(ref, 'apiVersion', 'v1');
    }
  }
  for (const item of Array.isArray(record(v['downwardAPI'])?.['items']) ? record(v['downwardAPI'])!['items'] as unknown[] : []) {
    const ref = record(record(item)?.['fieldRef']);
    if (ref !== undefined) setDefault(ref, 'apiVersion', 'v1');
  }
  const hostPath = record(v['hostPath']);
  if (hostPath !== undefined) setDefault(hostPath, 'type', '');
  const iscsi = record(v['iscsi']);
  if (iscsi !== undefined) setDefault(iscsi, 'iscsiInterface', 'default');
  const rbd = record(v['rbd']);
  if (rbd !== undefined) {
    setDefault(rbd, 'pool', 'rbd');
    setDefault(rbd, 'user', 'admin');
    setDefault(rbd, 'keyring', '/etc/ceph/keyring');
  }
  const azureDisk = record(v['azureDisk']);
  if (azureDisk !== undefined) {
    setDefault(azureDisk, 'cachingMode', 'ReadWrite');
    setDefault(azureDisk, 'fsType', 'ext4');
    setDefault(azureDisk, 'readOnly', false);
    setDefault(azureDisk, 'kind', 'Shared');
  }
  const scaleIO = record(v['scaleIO']);
  if (scaleIO !== undefined) {
    setDefault(scaleIO, 'storageMode', 'ThinProvisioned');
    setDefault(scaleIO, 'fsType', 'xfs');
  }
}

/**
 * The deprecated `serviceAccount` alias as kube's v1 conversion keeps it: it names the account when
 * `serviceAccountName` is empty, and is always written back equal to `serviceAccountName`.
 */
export function mirrorServiceAccount(spec: Json): void {
  const name = spec['serviceAccountName'];
  const alias = spec['serviceAccount'];
  if ((typeof name !== 'string' || name === '') && typeof alias === 'string' && alias !== '') spec['serviceAccountName'] = alias;
  const resolved = spec['serviceAccountName'];
  if (typeof resolved === 'string' && resolved !== '') spec['serviceAccount'] = resolved;
  else delete spec['serviceAccount'];
}

/** defaultHostNetworkPorts: on the host network a container port's hostPort is its containerPort. */
function defaultHostNetworkPorts(containers: unknown): void {
  for (const c of Array.isArray(containers) ? containers : []) {
    for (const port of Array.isArray(record(c)?.['ports']) ? record(c)!['ports'] as unknown[] : []) {
      const p = record(port);
      if (p !== undefined && (p['hostPort'] === undefined || p['hostPort'] === 0)) p['hostPort'] = p['containerPort'];
    }
  }
}

/** SetDefaults_PodSpec and its containers and volumes, in place (every pod spec, pods' and templates'). */
export function defaultPodSpec(spec: Json): void {
  mirrorServiceAccount(spec);
  setDefault(spec, 'dnsPolicy', 'ClusterFirst');
  setDefault(spec, 'restartPolicy', 'Always');
  if (spec['hostNetwork'] === true) {
    defaultHostNetworkPorts(spec['containers']);
    defaultHostNetworkPorts(spec['initContainers']);
  }
  setDefault(spec, 'securityContext', {});
  setDefault(spec, 'terminationGracePeriodSeconds', 30);
  setDefault(spec, 'schedulerName', 'default-scheduler');
  canonicalizeResourceList(spec['overhead']);
  for (const key of ['containers', 'initContainers', 'ephemeralContainers']) {
    for (const c of Array.isArray(spec[key]) ? spec[key] : []) defaultContainer(c);
  }
  for (const v of Array.isArray(spec['volumes']) ? spec['volumes'] : []) defaultVolume(v);
}

/**
 * SetDefaults_Pod's resource defaulting: a container's limits without a request become its requests (for Pods
 * only, not for pod templates).
 */
export function defaultRequestsFromLimits(spec: Json): void {
  for (const key of ['containers', 'initContainers']) {
    for (const c of Array.isArray(spec[key]) ? spec[key] : []) {
      const resources = record(record(c)?.['resources']);
      const limits = record(resources?.['limits']);
      if (resources === undefined || limits === undefined) continue;
      const requests = child(resources, 'requests');
      for (const [name, value] of Object.entries(limits)) setDefault(requests, name, structuredClone(value));
    }
  }
}

/**
 * SetDefaults_Pod, what only a Pod gets beyond its spec's defaults (templates do not): requests copied from limits
 * where a container sets a limit without its request, and `enableServiceLinks` true.
 */
export function defaultPodOnly(spec: Json): void {
  defaultRequestsFromLimits(spec);
  setDefault(spec, 'enableServiceLinks', true);
}

/** Defaults of a pod template (`spec.template.spec`) inside a workload's spec. */
export function defaultPodTemplate(spec: Json): void {
  const template = record(spec['template']);
  if (template === undefined) return;
  defaultPodSpec(child(template, 'spec'));
}

const quantity = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+|Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E|u|n)?$/;

/** True for a resource quantity kube's ParseQuantity accepts. */
export function isQuantity(value: unknown): boolean {
  return (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && quantity.test(value));
}

/** A port number check (1-65535) as validation.IsValidPortNum words it. */
export function validatePortNumber(path: string, value: unknown, allowZero = false): FieldError[] {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < (allowZero ? 0 : 1) || value > 65535) {
    return [fieldError.invalid(path, value, 'must be between 1 and 65535, inclusive')];
  }
  return [];
}

/**
 * PodValidationOptions as 1.27 computes them (GetValidationOptionsFromPodSpecAndMeta): what the stored object
 * already did that newer checks refuse stays allowed on update.
 */
export interface PodSpecOptions {
  /** The pod's name, when the spec is a pod's (ephemeral volumes name their claims after it). */
  readonly podName?: string;
  readonly allowIndivisibleHugePages: boolean;
  readonly allowInvalidLabelValueInSelector: boolean;
  readonly allowInvalidTopologySpreadSelector: boolean;
  readonly allowInvalidPodDeletionCost: boolean;
  /** The expanded DNS search limits (ExpandedDNSConfig on, or the stored spec used them). */
  readonly allowExpandedDnsConfig: boolean;
}

/** Nothing relaxed beyond the 1.27 default gates: a create, or a template checked on its own. */
export const strictPodSpecOptions: PodSpecOptions = {
  allowIndivisibleHugePages: false, allowInvalidLabelValueInSelector: false, allowInvalidTopologySpreadSelector: false,
  allowInvalidPodDeletionCost: false, allowExpandedDnsConfig: true,
};

/** The stored spec's DNS search list was past the unexpanded limits (haveSameExpandedDNSConfig's relaxation). */
function usedExpandedDnsConfig(spec: Json): boolean {
  const searches = list(obj(spec['dnsConfig'])['searches']).map(text);
  return searches.length > 6 || searches.join(' ').length > 256;
}

/**
 * The options for a spec given the stored spec and annotations on update (absent on create) and the server's gates
 * (GetValidationOptionsFromPodSpecAndMeta): PodDeletionCost off lets any deletion cost through, ExpandedDNSConfig
 * off holds the search list to the old limits unless the stored spec already went past them.
 */
export function podSpecOptions(old: { spec: Json; annotations: Json } | undefined, podName?: string, gates: FeatureGates = defaultFeatureGates): PodSpecOptions {
  const gated: PodSpecOptions = {
    ...strictPodSpecOptions,
    allowInvalidPodDeletionCost: !gates.PodDeletionCost,
    allowExpandedDnsConfig: gates.ExpandedDNSConfig || (old !== undefined && usedExpandedDnsConfig(old.spec)),
  };
  const base = podName === undefined ? gated : { ...gated, podName };
  if (old === undefined) return base;
  const oldContainers = ['containers', 'initContainers'].flatMap((k) => objects(old.spec[k]));
  const affinity = obj(old.spec['affinity']);
  const terms = ['podAffinity', 'podAntiAffinity'].flatMap((kind) => [
    ...objects(obj(affinity[kind])['requiredDuringSchedulingIgnoredDuringExecution']),
    ...objects(obj(affinity[kind])['preferredDuringSchedulingIgnoredDuringExecution']).map((t) => obj(t['podAffinityTerm'])),
  ]);
  return {
    ...base,
    allowIndivisibleHugePages: oldContainers.some((c) => hasIndivisibleHugePages(obj(obj(c['resources'])['limits'])) || hasIndivisibleHugePages(obj(obj(c['resources'])['requests']))),
    allowInvalidLabelValueInSelector: terms.some((t) => hasInvalidLabelValue(t['labelSelector']) || hasInvalidLabelValue(t['namespaceSelector'])),
    allowInvalidTopologySpreadSelector: hasInvalidTopologySpreadSelector(old.spec['topologySpreadConstraints']),
    allowInvalidPodDeletionCost: base.allowInvalidPodDeletionCost || deletionCostInvalid(old.annotations),
  };
}

/**
 * GetValidationOptionsFromPodTemplate: the options of a template given the stored template (absent on create)
 * and the server's gates.
 */
export function podTemplateOptions(old: unknown, gates: FeatureGates = defaultFeatureGates): PodSpecOptions {
  const t = record(old);
  return podSpecOptions(t === undefined ? undefined : { spec: obj(t['spec']), annotations: obj(obj(t['metadata'])['annotations']) }, undefined, gates);
}

/** The volumes a spec names, with whether each is a claim, for its containers' mounts and devices. */
function volumeIndex(volumes: readonly Json[], valid: ReadonlySet<number>): Map<string, { claim: boolean }> {
  const index = new Map<string, { claim: boolean }>();
  volumes.forEach((v, i) => {
    if (valid.has(i)) index.set(text(v['name']), { claim: isSet(v['persistentVolumeClaim']) || isSet(v['ephemeral']) });
  });
  return index;
}

/** ValidateVolumes: names unique DNS labels, one valid source each; mounts may name only the valid ones. */
function volumesErrors(spec: Json, path: string, options: PodSpecOptions): { errs: FieldError[]; valid: Set<number> } {
  const errs: FieldError[] = [];
  const valid = new Set<number>();
  const names = new Set<string>();
  const volumes = objects(spec['volumes']);
  const podName = options.podName ?? '';
  const created = new Set(podName === '' ? [] : volumes.filter((v) => isSet(v['ephemeral'])).map((v) => `${podName}-${text(v['name'])}`));
  volumes.forEach((v, i) => {
    const at = `${path}[${i}]`;
    const name = text(v['name']);
    const own = podVolumeSourceErrors(v, at, options.podName);
    if (name === '') own.push(fieldError.required(`${at}.name`));
    else own.push(...dns1123Label(name, `${at}.name`));
    if (names.has(name)) own.push(fieldError.duplicate(`${at}.name`, name));
    if (own.length === 0) {
      names.add(name);
      valid.add(i);
    }
    errs.push(...own);
    const claim = text(obj(v['persistentVolumeClaim'])['claimName']);
    if (isSet(v['persistentVolumeClaim']) && created.has(claim)) {
      errs.push(fieldError.invalid(`${at}.persistentVolumeClaim.claimName`, claim, 'must not reference a PVC that gets created for an ephemeral volume'));
    }
  });
  return { errs, valid };
}

/** validatePodHostNetworkDeps: on the host network every container port's hostPort is its containerPort. */
function hostNetworkErrors(spec: Json, path: string): FieldError[] {
  if (spec['hostNetwork'] !== true) return [];
  const errs: FieldError[] = [];
  objects(spec['containers']).forEach((c, i) => {
    objects(c['ports']).forEach((p, j) => {
      if (num(p['hostPort']) !== num(p['containerPort'])) {
        errs.push(fieldError.invalid(`${path}.containers[${i}].ports[${j}].hostPort`, num(p['hostPort']), 'must match `containerPort` when `hostNetwork` is true'));
      }
    });
  });
  return errs;
}

/** validateImagePullSecrets: only `name` may be set. */
function pullSecretErrors(secrets: unknown, path: string): FieldError[] {
  return objects(secrets).flatMap((s, i) => (Object.keys(s).some((k) => k !== 'name' && isSet(s[k])) ? [fieldError.invalid(`${path}[${i}]`, s, 'only name may be set')] : []));
}

/**
 * ValidatePodSpec (1.27) at `path` (`spec`, `spec.template.spec`): volumes, containers of every kind, restart and
 * DNS policies, node selector, security context, pull secrets, affinity, DNS config, readiness and scheduling
 * gates, topology spread, host-process and OS rules, names, deadline, tolerations, host aliases, priority,
 * runtime class, preemption and overhead. `allowedRestartPolicies` narrows the restart policy for a workload's
 * template as its kind's check does.
 */
export function validatePodSpec(
  spec: Json | undefined, path: string, allowedRestartPolicies: readonly string[] = ['Always', 'OnFailure', 'Never'], options: PodSpecOptions = strictPodSpecOptions,
): FieldError[] {
  const s = spec ?? {};
  const errs: FieldError[] = [];
  if (!isSet(s['terminationGracePeriodSeconds'])) errs.push(fieldError.required(`${path}.terminationGracePeriodSeconds`));
  const restartPolicy = text(s['restartPolicy']);
  const volumes = volumesErrors(s, `${path}.volumes`, options);
  errs.push(...volumes.errs);
  const context = {
    volumes: volumeIndex(objects(s['volumes']), volumes.valid), gracePeriod: s['terminationGracePeriodSeconds'],
    hostUsers: s['hostUsers'] !== false, allowIndivisibleHugePages: options.allowIndivisibleHugePages,
  };
  errs.push(...containersErrors(s['containers'], context, restartPolicy, `${path}.containers`));
  errs.push(...initContainersErrors(s['initContainers'], s['containers'], context, restartPolicy, `${path}.initContainers`));
  errs.push(...ephemeralContainersErrors(s, context, restartPolicy, `${path}.ephemeralContainers`));
  errs.push(...hostNetworkErrors(s, path));
  if (restartPolicy === '') errs.push(fieldError.required(`${path}.restartPolicy`));
  else if (!allowedRestartPolicies.includes(restartPolicy)) errs.push(fieldError.notSupported(`${path}.restartPolicy`, restartPolicy, allowedRestartPolicies));
  errs.push(...oneOf(s['dnsPolicy'], `${path}.dnsPolicy`, ['ClusterFirstWithHostNet', 'ClusterFirst', 'Default', 'None'], true));
  errs.push(...validateLabelMap(s['nodeSelector'], `${path}.nodeSelector`));
  errs.push(...podSecurityContextErrors(s['securityContext'], `${path}.securityContext`), ...podNamespaceErrors(s, path));
  errs.push(...pullSecretErrors(s['imagePullSecrets'], `${path}.imagePullSecrets`));
  errs.push(...affinityErrors(s['affinity'], options.allowInvalidLabelValueInSelector, `${path}.affinity`));
  errs.push(...dnsConfigErrors(s['dnsConfig'], text(s['dnsPolicy']), `${path}.dnsConfig`, options.allowExpandedDnsConfig));
  errs.push(...readinessGateErrors(s['readinessGates'], `${path}.readinessGates`), ...schedulingGateErrors(s['schedulingGates'], `${path}.schedulingGates`));
  errs.push(...topologySpreadErrors(s['topologySpreadConstraints'], options.allowInvalidTopologySpreadSelector, `${path}.topologySpreadConstraints`));
  errs.push(...hostProcessErrors(s, path));
  const names: [string, (value: string, at: string) => FieldError[]][] = [
    ['serviceAccountName', dns1123Subdomain], ['nodeName', dns1123Subdomain], ['hostname', dns1123Label], ['subdomain', dns1123Label],
  ];
  for (const [key, check] of names) if (text(s[key]) !== '') errs.push(...check(text(s[key]), `${path}.${key}`));
  if (isSet(s['activeDeadlineSeconds'])) {
    const deadline = num(s['activeDeadlineSeconds']);
    if (deadline < 1 || deadline > 2147483647) errs.push(fieldError.invalid(`${path}.activeDeadlineSeconds`, deadline, inclusiveRange(1, 2147483647)));
  }
  errs.push(...tolerationErrors(s['tolerations'], `${path}.tolerations`), ...hostAliasErrors(s['hostAliases'], `${path}.hostAliases`));
  if (text(s['priorityClassName']) !== '') errs.push(...dns1123Subdomain(text(s['priorityClassName']), `${path}.priorityClassName`));
  if (isSet(s['runtimeClassName'])) errs.push(...dns1123Subdomain(text(s['runtimeClassName']), `${path}.runtimeClassName`));
  if (isSet(s['preemptionPolicy'])) errs.push(...oneOf(s['preemptionPolicy'], `${path}.preemptionPolicy`, ['PreemptLowerPriority', 'Never'], true));
  if (isSet(s['overhead'])) errs.push(...resourceRequirementsErrors({ limits: s['overhead'] }, `${path}.overhead`, { allowIndivisibleHugePages: options.allowIndivisibleHugePages }));
  errs.push(...osErrors(s, path));
  // Present only where DynamicResourceAllocation kept them (dropped-fields.ts).
  errs.push(...podResourceClaimErrors(s['resourceClaims'], `${path}.resourceClaims`, options.podName));
  const podClaims = new Set(objects(s['resourceClaims']).map((c) => text(c['name'])).filter((n) => n !== ''));
  for (const key of ['containers', 'initContainers']) {
    objects(s[key]).forEach((c, i) => errs.push(...containerClaimErrors(obj(c['resources'])['claims'], podClaims, `${path}.${key}[${i}].resources.claims`)));
  }
  return errs;
}

/** The pod annotations the checks read, in a flavour's names. */
export interface PodAnnotationKeys extends SecurityAnnotationKeys {
  readonly mirrorPod: string;
  readonly tolerations: string;
  readonly deletionCost: string;
}

/** The annotation keys of a flavour. */
export function podAnnotationKeys(names: Names): PodAnnotationKeys {
  return {
    mirrorPod: names.domain('config.mirror'),
    tolerations: names.domain('tolerations', 'scheduler.alpha'),
    deletionCost: names.domain('pod-deletion-cost', 'controller'),
    seccompPod: names.domain('pod', 'seccomp.security.alpha'),
    seccompContainerPrefix: names.domain('', 'container.seccomp.security.alpha'),
    appArmorContainerPrefix: names.domain('', 'container.apparmor.security.beta'),
  };
}

/** GetDeletionCostFromPodAnnotations failing: the pod deletion cost annotation is not a 32-bit integer. */
function deletionCostInvalid(annotations: Json, key?: string): boolean {
  const value = key === undefined
    ? Object.entries(annotations).find(([k]) => k.endsWith('/pod-deletion-cost'))?.[1]
    : annotations[key];
  if (value === undefined) return false;
  const t = text(value);
  if (!/^[+-]?\d+$/.test(t)) return true;
  const n = Number(t);
  return n < -2147483648 || n > 2147483647;
}

/** ValidatePodSpecificAnnotations at `path` (`metadata.annotations`): mirror pods, tolerations, deletion cost, seccomp and AppArmor. */
export function podAnnotationErrors(annotations: Json, spec: Json, keys: PodAnnotationKeys, options: PodSpecOptions, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (annotations[keys.mirrorPod] !== undefined && text(spec['nodeName']) === '') {
    errs.push(fieldError.invalid(`${path}[${keys.mirrorPod}]`, annotations[keys.mirrorPod], 'must set spec.nodeName if mirror pod annotation is set'));
  }
  const tolerations = text(annotations[keys.tolerations]);
  if (tolerations !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(tolerations);
    } catch (e) {
      errs.push(fieldError.invalid(path, keys.tolerations, (e as Error).message));
    }
    if (Array.isArray(parsed)) errs.push(...tolerationErrors(parsed, `${path}.${keys.tolerations}`));
  }
  if (!options.allowInvalidPodDeletionCost && deletionCostInvalid(annotations, keys.deletionCost)) {
    errs.push(fieldError.invalid(`${path}[${keys.deletionCost}]`, annotations[keys.deletionCost], 'must be a 32bit integer'));
  }
  return [...errs, ...securityAnnotationErrors(annotations, spec, keys, path)];
}

/**
 * ValidatePodTemplateSpec at `path` (`template`, `spec.template`): the template's labels and annotations (reported at
 * `<path>.labels` and `<path>.annotations`, as kube does), the pod annotations, the spec, seccomp annotations beside
 * fields, and no ephemeral containers.
 */
export function validatePodTemplateSpec(
  template: Json, path: string, keys: PodAnnotationKeys, allowedRestartPolicies?: readonly string[], options: PodSpecOptions = strictPodSpecOptions,
): FieldError[] {
  const meta = obj(template['metadata']);
  const spec = obj(template['spec']);
  const annotations = obj(meta['annotations']);
  const errs = [
    ...validateLabels(meta['labels'] as Record<string, string> | undefined, `${path}.labels`),
    ...validateAnnotations(annotations as Record<string, string>, `${path}.annotations`),
    ...podAnnotationErrors(annotations, spec, keys, options, `${path}.annotations`),
    ...validatePodSpec(spec, `${path}.spec`, allowedRestartPolicies, options),
    ...seccompAnnotationFieldErrors(annotations, spec, keys, `${path}.spec`),
  ];
  if (list(spec['ephemeralContainers']).length > 0) errs.push(fieldError.forbidden(`${path}.spec.ephemeralContainers`, 'ephemeral containers not allowed in pod template'));
  return errs;
}
