/**
 * The pod spec's defaults and checks shared by Pods and every pod template (ReplicationController, Deployment,
 * ReplicaSet, DaemonSet, StatefulSet, Job, CronJob, PodTemplate): kube's SetDefaults_PodSpec, SetDefaults_Container
 * and friends (pkg/apis/core/v1/defaults.go) and the parts of ValidatePodSpec users meet most (container names and
 * images, ports, enumerations, resource quantities), plus the generic label selector checks of apps and batch.
 */
import { fieldError, type FieldError, type KubeObject } from '@svc-apiserver/api';
import { labelKeyError, labelValueError } from '@svc-apiserver/api/label-selector';
import { isDns1123Label, isDns1123Subdomain, isQualifiedName } from '../../meta/name-rules.js';
import { quantityFormatMessage, quantityValue } from './quantity.js';
import { validateContainerDetails, validateSpecFields, validateVolumes } from './pod-spec-checks.js';
import { record } from '../conversion/resource-conversion.js';
import { semanticEqual } from './semantic-equal.js';

type Json = Record<string, unknown>;

/** Sets `object[key]` to `value` when it is unset. */
export function setDefault(object: Json, key: string, value: unknown): void {
  if (object[key] === undefined) object[key] = value;
}

/** The child object at `key`, created when unset. */
export function child(object: Json, key: string): Json {
  const existing = record(object[key]);
  if (existing !== undefined) return existing;
  const made: Json = {};
  object[key] = made;
  return made;
}

/** kube's image pull policy default: `Always` for `:latest` or an untagged image, else `IfNotPresent`. */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
  if (image.includes('@')) return 'IfNotPresent';
  const lastSlash = image.lastIndexOf('/');
  const colon = image.indexOf(':', lastSlash + 1);
  if (colon < 0) return 'Always';
  return image.slice(colon + 1) === 'latest' ? 'Always' : 'IfNotPresent';
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
  if (typeof c['image'] === 'string') setDefault(c, 'imagePullPolicy', defaultPullPolicy(c['image']));
  setDefault(c, 'terminationMessagePath', '/dev/termination-log');
  setDefault(c, 'terminationMessagePolicy', 'File');
  setDefault(c, 'resources', {});
  for (const port of Array.isArray(c['ports']) ? c['ports'] : []) {
    const p = record(port);
    if (p !== undefined) setDefault(p, 'protocol', 'TCP');
  }
  for (const env of Array.isArray(c['env']) ? c['env'] : []) {
    const ref = record(record(record(env)?.['valueFrom'])?.['fieldRef']);
    if (ref !== undefined) setDefault(ref, 'apiVersion', 'v1');
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

/** The volume source fields of a Volume (any one set means the volume has a type). */
const volumeSourceFields = [
  'awsElasticBlockStore', 'azureDisk', 'azureFile', 'cephfs', 'cinder', 'configMap', 'csi', 'downwardAPI', 'emptyDir',
  'ephemeral', 'fc', 'flexVolume', 'flocker', 'gcePersistentDisk', 'gitRepo', 'glusterfs', 'hostPath', 'iscsi', 'nfs',
  'persistentVolumeClaim', 'photonPersistentDisk', 'portworxVolume', 'projected', 'quobyte', 'rbd', 'scaleIO',
  'secret', 'storageos', 'vsphereVolume',
];

function defaultVolume(volume: unknown): void {
  const v = record(volume);
  if (v === undefined) return;
  // SetDefaults_Volume: a volume naming no source is an emptyDir.
  if (!volumeSourceFields.some((f) => v[f] !== undefined && v[f] !== null)) v['emptyDir'] = {};
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

const protocols = ['SCTP', 'TCP', 'UDP'];

function validateContainers(list: unknown, path: string, required: boolean, names: Set<string>, volumes: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(list) || list.length === 0) {
    if (required) errs.push(fieldError.required(path));
    return errs;
  }
  list.forEach((raw, i) => {
    const c = record(raw) ?? {};
    const at = `${path}[${i}]`;
    const name = c['name'];
    if (typeof name !== 'string' || name === '') errs.push(fieldError.required(`${at}.name`));
    else {
      for (const msg of isDns1123Label(name)) errs.push(fieldError.invalid(`${at}.name`, name, msg));
      if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
      names.add(name);
    }
    if (typeof c['image'] !== 'string' || c['image'].trim() === '') errs.push(fieldError.required(`${at}.image`));
    const policy = c['imagePullPolicy'];
    if (policy !== undefined && !['Always', 'IfNotPresent', 'Never'].includes(String(policy))) {
      errs.push(fieldError.notSupported(`${at}.imagePullPolicy`, policy, ['Always', 'IfNotPresent', 'Never']));
    }
    (Array.isArray(c['ports']) ? c['ports'] : []).forEach((rawPort, j) => {
      const p = record(rawPort) ?? {};
      if (p['containerPort'] === undefined || p['containerPort'] === 0) errs.push(fieldError.required(`${at}.ports[${j}].containerPort`));
      else errs.push(...validatePortNumber(`${at}.ports[${j}].containerPort`, p['containerPort']));
      if (p['hostPort'] !== undefined && p['hostPort'] !== 0) errs.push(...validatePortNumber(`${at}.ports[${j}].hostPort`, p['hostPort']));
      if (p['protocol'] !== undefined && !protocols.includes(String(p['protocol']))) {
        errs.push(fieldError.notSupported(`${at}.ports[${j}].protocol`, p['protocol'], protocols));
      }
    });
    errs.push(...validateResourceRequirements(record(c['resources']) ?? {}, `${at}.resources`));
    errs.push(...validateContainerDetails(c, at, volumes, path.endsWith('initContainers')));
  });
  return errs;
}

const standardContainerResources = new Set(['cpu', 'memory', 'ephemeral-storage']);

/** validateContainerResourceName: cpu, memory, ephemeral-storage, hugepages-<size>, or a qualified extended name. */
function containerResourceNameErrors(name: string, path: string): FieldError[] {
  if (standardContainerResources.has(name) || name.startsWith('hugepages-')) return [];
  if (!name.includes('/')) return [fieldError.invalid(path, name, 'must be a standard resource for containers')];
  const errs: FieldError[] = [];
  for (const msg of isQualifiedName(name)) errs.push(fieldError.invalid(path, name, msg));
  return errs;
}

/** Resources whose requests may be below their limits (helper.IsOvercommitAllowed): all but extended resources. */
function overcommitAllowed(name: string): boolean {
  return standardContainerResources.has(name) || (!name.includes('/') && !name.startsWith('hugepages-'));
}

/** ValidateResourceRequirements: known names, non-negative quantities, requests not above (or for extended resources equal to) limits. */
export function validateResourceRequirements(resources: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const limits = record(resources['limits']) ?? {};
  const requests = record(resources['requests']) ?? {};
  const quantityErrors = (name: string, value: unknown, at: string): FieldError[] => {
    const v = quantityValue(value);
    if (v === undefined) return [fieldError.invalid(at, value, quantityFormatMessage)];
    if (v < 0) return [fieldError.invalid(at, value, 'must be greater than or equal to 0')];
    if ((name === 'cpu' ? false : !overcommitAllowed(name)) && !Number.isInteger(v)) return [fieldError.invalid(at, value, 'must be an integer')];
    return [];
  };
  for (const [name, value] of Object.entries(limits)) {
    errs.push(...containerResourceNameErrors(name, `${path}.limits[${name}]`), ...quantityErrors(name, value, `${path}.limits[${name}]`));
  }
  for (const [name, value] of Object.entries(requests)) {
    errs.push(...containerResourceNameErrors(name, `${path}.requests[${name}]`), ...quantityErrors(name, value, `${path}.requests[${name}]`));
    const request = quantityValue(value);
    if (limits[name] !== undefined) {
      const limit = quantityValue(limits[name]);
      if (request === undefined || limit === undefined) continue;
      if (request !== limit && !overcommitAllowed(name)) errs.push(fieldError.invalid(`${path}.requests`, value, `must be equal to ${name} limit of ${String(limits[name])}`));
      else if (request > limit) errs.push(fieldError.invalid(`${path}.requests`, value, `must be less than or equal to ${name} limit of ${String(limits[name])}`));
    } else if (!overcommitAllowed(name)) {
      errs.push(fieldError.required(`${path}.limits`, 'Limit must be set for non overcommitable resources'));
    }
  }
  return errs;
}

/** The parts of ValidatePodSpec checked here, at `path` (`spec` or `spec.template.spec`). */
export function validatePodSpec(spec: Json | undefined, path: string, allowedRestartPolicies: readonly string[] = ['Always', 'OnFailure', 'Never']): FieldError[] {
  const s = spec ?? {};
  const names = new Set<string>();
  const volumes = validateVolumes(s['volumes'], `${path}.volumes`);
  const errs = [
    ...volumes.errs,
    ...validateContainers(s['containers'], `${path}.containers`, true, names, volumes.names),
    ...validateContainers(s['initContainers'], `${path}.initContainers`, false, names, volumes.names),
  ];
  const restart = s['restartPolicy'];
  if (restart !== undefined && !allowedRestartPolicies.includes(String(restart))) {
    errs.push(fieldError.notSupported(`${path}.restartPolicy`, restart, allowedRestartPolicies));
  }
  const dns = s['dnsPolicy'];
  const dnsPolicies = ['ClusterFirst', 'ClusterFirstWithHostNet', 'Default', 'None'];
  if (dns !== undefined && !dnsPolicies.includes(String(dns))) errs.push(fieldError.notSupported(`${path}.dnsPolicy`, dns, dnsPolicies));
  // A negative terminationGracePeriodSeconds is accepted (a warning says it is treated as 1), as kube 1.27 accepts it.
  const sa = s['serviceAccountName'];
  if (typeof sa === 'string' && sa !== '') for (const msg of isDns1123Subdomain(sa)) errs.push(fieldError.invalid(`${path}.serviceAccountName`, sa, msg));
  errs.push(...validateSpecFields(s, path));
  return errs;
}

/** Label map checks (ValidateLabels) at `path`. */
export function validateLabelMap(labels: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(record(labels) ?? {})) {
    const keyErr = labelKeyError(k);
    if (keyErr !== undefined) errs.push(fieldError.invalid(path, k, keyErr));
    const valueErr = labelValueError(String(v));
    if (valueErr !== undefined) errs.push(fieldError.invalid(`${path}[${k}]`, v, valueErr));
  }
  return errs;
}

const selectorOperators = ['In', 'NotIn', 'Exists', 'DoesNotExist'];

/** ValidateLabelSelector (a metav1.LabelSelector) at `path`. */
export function validateLabelSelector(selector: unknown, path: string): FieldError[] {
  const s = record(selector);
  if (s === undefined) return [];
  const errs = validateLabelMap(s['matchLabels'], `${path}.matchLabels`);
  (Array.isArray(s['matchExpressions']) ? s['matchExpressions'] : []).forEach((raw, i) => {
    const e = record(raw) ?? {};
    const at = `${path}.matchExpressions[${i}]`;
    const op = String(e['operator'] ?? '');
    const values = Array.isArray(e['values']) ? e['values'] : [];
    if (!selectorOperators.includes(op)) errs.push(fieldError.notSupported(`${at}.operator`, e['operator'], selectorOperators));
    else if ((op === 'In' || op === 'NotIn') && values.length === 0) errs.push(fieldError.required(`${at}.values`, 'must be specified when `operator` is \'In\' or \'NotIn\''));
    else if ((op === 'Exists' || op === 'DoesNotExist') && values.length > 0) errs.push(fieldError.forbidden(`${at}.values`, 'may not be specified when `operator` is \'Exists\' or \'DoesNotExist\''));
    const key = String(e['key'] ?? '');
    const keyErr = labelKeyError(key);
    if (keyErr !== undefined) errs.push(fieldError.invalid(`${at}.key`, key, keyErr));
  });
  return errs;
}

/** True when a metav1.LabelSelector selects the labels (for the template-labels check). */
export function selectorMatches(selector: unknown, labels: Readonly<Record<string, string>>): boolean {
  const s = record(selector) ?? {};
  for (const [k, v] of Object.entries(record(s['matchLabels']) ?? {})) if (labels[k] !== v) return false;
  for (const raw of Array.isArray(s['matchExpressions']) ? s['matchExpressions'] : []) {
    const e = record(raw) ?? {};
    const key = String(e['key'] ?? '');
    const values = (Array.isArray(e['values']) ? e['values'] : []).map(String);
    const has = Object.prototype.hasOwnProperty.call(labels, key);
    switch (e['operator']) {
      case 'In': if (!has || !values.includes(labels[key]!)) return false; break;
      case 'NotIn': if (has && values.includes(labels[key]!)) return false; break;
      case 'Exists': if (!has) return false; break;
      case 'DoesNotExist': if (has) return false; break;
      default: return false;
    }
  }
  return true;
}

/** True when two JSON values are semantically equal (key order ignored, absent equals empty; see semantic-equal.ts). */
export function sameJson(a: unknown, b: unknown): boolean {
  return semanticEqual(a, b);
}

/** The `field is immutable` error of a field that changed. */
export function immutable(path: string, now: unknown, before: unknown): FieldError[] {
  return sameJson(now, before) ? [] : [fieldError.invalid(path, now, 'field is immutable')];
}

/** The object's `spec` as a record (created when missing). */
export function specOf(object: KubeObject): Json {
  return child(object as Json, 'spec');
}
