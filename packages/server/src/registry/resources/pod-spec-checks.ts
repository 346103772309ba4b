/**
 * More of kube 1.27's ValidatePodSpec (pkg/apis/core/validation): volumes (names, one source each, the fields
 * each common source requires), what each container adds (environment variable names and sources, volume mounts
 * naming a volume at unique paths, port names and numbers, probe handlers, init containers without probes or
 * lifecycle, the termination message policy), tolerations, and the spec's names and deadline.
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import { labelKeyError, labelValueError } from '@svc-apiserver/api/label-selector';
import { isDns1123Label, isDns1123Subdomain } from '../../meta/name-rules.js';
import { record } from '../conversion/resource-conversion.js';

type Json = Record<string, unknown>;

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The volume source fields of a Volume. */
const volumeSources = [
  'awsElasticBlockStore', 'azureDisk', 'azureFile', 'cephfs', 'cinder', 'configMap', 'csi', 'downwardAPI', 'emptyDir',
  'ephemeral', 'fc', 'flexVolume', 'flocker', 'gcePersistentDisk', 'gitRepo', 'glusterfs', 'hostPath', 'iscsi', 'nfs',
  'persistentVolumeClaim', 'photonPersistentDisk', 'portworxVolume', 'projected', 'quobyte', 'rbd', 'scaleIO',
  'secret', 'storageos', 'vsphereVolume',
];

/** ValidateVolumes: the names it accepts (for volume mounts) and its errors. */
export function validateVolumes(volumes: unknown, path: string): { names: Set<string>; errs: FieldError[] } {
  const names = new Set<string>();
  const errs: FieldError[] = [];
  list(volumes).forEach((raw, i) => {
    const v = record(raw) ?? {};
    const at = `${path}[${i}]`;
    const name = text(v['name']);
    if (name === '') errs.push(fieldError.required(`${at}.name`));
    else {
      for (const msg of isDns1123Label(name)) errs.push(fieldError.invalid(`${at}.name`, name, msg));
      if (names.has(name)) errs.push(fieldError.duplicate(`${at}.name`, name));
      else names.add(name);
    }
    const sources = volumeSources.filter((s) => v[s] !== undefined && v[s] !== null);
    if (sources.length === 0) errs.push(fieldError.required(at, 'must specify a volume type'));
    for (const extra of sources.slice(1)) errs.push(fieldError.forbidden(`${at}.${extra}`, 'may not specify more than 1 volume type'));
    const secret = record(v['secret']);
    if (secret !== undefined && text(secret['secretName']) === '') errs.push(fieldError.required(`${at}.secret.secretName`));
    const hostPath = record(v['hostPath']);
    if (hostPath !== undefined && text(hostPath['path']) === '') errs.push(fieldError.required(`${at}.hostPath.path`));
    const claim = record(v['persistentVolumeClaim']);
    if (claim !== undefined && text(claim['claimName']) === '') errs.push(fieldError.required(`${at}.persistentVolumeClaim.claimName`));
    const nfs = record(v['nfs']);
    if (nfs !== undefined) {
      if (text(nfs['server']) === '') errs.push(fieldError.required(`${at}.nfs.server`));
      if (text(nfs['path']) === '') errs.push(fieldError.required(`${at}.nfs.path`));
    }
    for (const key of ['secret', 'configMap', 'downwardAPI', 'projected']) {
      const mode = record(v[key])?.['defaultMode'];
      if (typeof mode === 'number' && (mode < 0 || mode > 0o777)) {
        errs.push(fieldError.invalid(`${at}.${key}.defaultMode`, mode, 'must be a number between 0 and 0777 (octal), both inclusive'));
      }
    }
  });
  return { names, errs };
}

const envVarName = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
const envVarNameMessage = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";

/** IsValidPortName: an IANA service name. */
export function portNameErrors(name: string): string[] {
  const errs: string[] = [];
  if (name.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(name)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (name.includes('--')) errs.push('must not contain consecutive hyphens');
  if (!/[a-z]/.test(name)) errs.push('must contain at least one letter (a-z)');
  if (name.startsWith('-') || name.endsWith('-')) errs.push('must not begin or end with a hyphen');
  return errs;
}

const handlerTypes = ['exec', 'httpGet', 'tcpSocket', 'grpc'];

function handlerErrors(handler: Json, path: string, types: readonly string[]): FieldError[] {
  const present = types.filter((t) => handler[t] !== undefined && handler[t] !== null);
  if (present.length === 0) return [fieldError.required(path, 'must specify a handler type')];
  return present.slice(1).map((t) => fieldError.forbidden(`${path}.${t}`, 'may not specify more than 1 handler type'));
}

/** What validateContainers checks of one container beyond its name, image and resources. */
export function validateContainerDetails(c: Json, at: string, volumes: ReadonlySet<string>, init: boolean): FieldError[] {
  const errs: FieldError[] = [];
  list(c['env']).forEach((raw, j) => {
    const e = record(raw) ?? {};
    const p = `${at}.env[${j}]`;
    const name = text(e['name']);
    if (name === '') errs.push(fieldError.required(`${p}.name`));
    else if (!envVarName.test(name)) errs.push(fieldError.invalid(`${p}.name`, name, envVarNameMessage));
    const from = record(e['valueFrom']);
    if (from !== undefined) {
      const sources = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef'].filter((k) => from[k] !== undefined && from[k] !== null);
      if (sources.length === 0) errs.push(fieldError.invalid(`${p}.valueFrom`, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`'));
      else if (sources.length > 1) errs.push(fieldError.invalid(`${p}.valueFrom`, '', 'may not have more than one field specified at a time'));
      if (text(e['value']) !== '') errs.push(fieldError.invalid(`${p}.valueFrom`, '', 'may not be specified when `value` is not empty'));
    }
  });
  const mountPaths = new Set<string>();
  list(c['volumeMounts']).forEach((raw, j) => {
    const m = record(raw) ?? {};
    const p = `${at}.volumeMounts[${j}]`;
    const name = text(m['name']);
    if (name === '') errs.push(fieldError.required(`${p}.name`));
    else if (!volumes.has(name)) errs.push(fieldError.notFound(`${p}.name`, name));
    const mountPath = text(m['mountPath']);
    if (mountPath === '') errs.push(fieldError.required(`${p}.mountPath`));
    else if (mountPaths.has(mountPath)) errs.push(fieldError.invalid(`${p}.mountPath`, mountPath, 'must be unique'));
    mountPaths.add(mountPath);
    const subPath = text(m['subPath']);
    if (subPath.startsWith('/')) errs.push(fieldError.invalid(`${p}.subPath`, subPath, 'must be a relative path'));
    if (subPath.split('/').includes('..')) errs.push(fieldError.invalid(`${p}.subPath`, subPath, "must not contain '..'"));
  });
  const portNames = new Set<string>();
  list(c['ports']).forEach((raw, j) => {
    const port = record(raw) ?? {};
    const name = text(port['name']);
    if (name === '') return;
    for (const msg of portNameErrors(name)) errs.push(fieldError.invalid(`${at}.ports[${j}].name`, name, msg));
    if (portNames.has(name)) errs.push(fieldError.duplicate(`${at}.ports[${j}].name`, name));
    portNames.add(name);
  });
  for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
    const pr = record(c[probe]);
    if (pr === undefined) continue;
    if (init) {
      errs.push(fieldError.forbidden(`${at}.${probe}`, 'may not be set for init containers'));
      continue;
    }
    errs.push(...handlerErrors(pr, `${at}.${probe}`, handlerTypes));
    if (probe !== 'readinessProbe' && pr['successThreshold'] !== undefined && pr['successThreshold'] !== 1) {
      errs.push(fieldError.invalid(`${at}.${probe}.successThreshold`, pr['successThreshold'], 'must be 1'));
    }
  }
  if (init && record(c['lifecycle']) !== undefined) errs.push(fieldError.forbidden(`${at}.lifecycle`, 'may not be set for init containers'));
  const policy = c['terminationMessagePolicy'];
  if (policy !== undefined && policy !== 'File' && policy !== 'FallbackToLogsOnError') {
    errs.push(fieldError.notSupported(`${at}.terminationMessagePolicy`, policy, ['File', 'FallbackToLogsOnError']));
  }
  return errs;
}

const tolerationOperators = ['Equal', 'Exists'];
const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'];

/** ValidateTolerations at `path`. */
export function validateTolerations(tolerations: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  list(tolerations).forEach((raw, i) => {
    const t = record(raw) ?? {};
    const at = `${path}[${i}]`;
    const key = text(t['key']);
    const operator = text(t['operator']);
    if (key !== '') {
      const keyErr = labelKeyError(key);
      if (keyErr !== undefined) errs.push(fieldError.invalid(`${at}.key`, key, keyErr));
    } else if (operator !== 'Exists') {
      errs.push(fieldError.invalid(`${at}.operator`, operator, 'operator must be Exists when `key` is empty, which means "match all values and all keys"'));
    }
    const effect = text(t['effect']);
    if (t['tolerationSeconds'] !== undefined && t['tolerationSeconds'] !== null && effect !== 'NoExecute') {
      errs.push(fieldError.invalid(`${at}.effect`, effect, "effect must be 'NoExecute' when `tolerationSeconds` is set"));
    }
    const value = text(t['value']);
    if (operator === 'Equal' || operator === '') {
      const valueErr = labelValueError(value);
      if (valueErr !== undefined) errs.push(fieldError.invalid(`${at}.operator`, value, valueErr));
    } else if (operator === 'Exists') {
      if (value !== '') errs.push(fieldError.invalid(`${at}.operator`, t, "value must be empty when `operator` is 'Exists'"));
    } else {
      errs.push(fieldError.notSupported(`${at}.operator`, operator, tolerationOperators));
    }
    if (effect !== '' && !taintEffects.includes(effect)) errs.push(fieldError.notSupported(`${at}.effect`, effect, taintEffects));
  });
  return errs;
}

/** The spec-level names and numbers ValidatePodSpec checks: node selector, node name, deadline, hostname, subdomain, priority class. */
export function validateSpecFields(s: Json, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(record(s['nodeSelector']) ?? {})) {
    const keyErr = labelKeyError(k);
    if (keyErr !== undefined) errs.push(fieldError.invalid(`${path}.nodeSelector`, k, keyErr));
    const valueErr = labelValueError(String(v));
    if (valueErr !== undefined) errs.push(fieldError.invalid(`${path}.nodeSelector[${k}]`, v, valueErr));
  }
  const nodeName = text(s['nodeName']);
  if (nodeName !== '') for (const msg of isDns1123Subdomain(nodeName)) errs.push(fieldError.invalid(`${path}.nodeName`, nodeName, msg));
  const deadline = s['activeDeadlineSeconds'];
  if (typeof deadline === 'number' && (deadline < 1 || deadline > 2147483647)) {
    errs.push(fieldError.invalid(`${path}.activeDeadlineSeconds`, deadline, 'must be between 1 and 2147483647, inclusive'));
  }
  for (const key of ['hostname', 'subdomain']) {
    const value = text(s[key]);
    if (value !== '') for (const msg of isDns1123Label(value)) errs.push(fieldError.invalid(`${path}.${key}`, value, msg));
  }
  const priorityClass = text(s['priorityClassName']);
  if (priorityClass !== '') for (const msg of isDns1123Subdomain(priorityClass)) errs.push(fieldError.invalid(`${path}.priorityClassName`, priorityClass, msg));
  errs.push(...validateTolerations(s['tolerations'], `${path}.tolerations`));
  return errs;
}
