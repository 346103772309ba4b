/**
 * Security settings of a pod as kube-apiserver 1.27 validates them (pkg/apis/core/validation): the pod and
 * container security contexts (user and group IDs, sysctls, fsGroup change policy, seccomp profiles, Windows
 * options, procMount, privilege escalation), Windows host-process pods, the OS field with what a Linux or a Windows
 * pod may not set, and the seccomp and AppArmor annotations. Privileged and host-process containers are allowed, as
 * `--allow-privileged=true` allows them.
 */
import { fieldError, type FieldError } from '@svc-apiserver/api';
import { dns1123Subdomain, inclusiveRange, isSet, list, obj, objects, oneOf, text, type Json } from './field-checks.js';
import { localDescendingPath } from './volume-paths.js';

/** The containers of a spec with their paths, in kube's VisitContainersWithPath order. */
export function containersWithPaths(spec: Json, path: string): { c: Json; at: string }[] {
  return ['initContainers', 'containers', 'ephemeralContainers'].flatMap((key) => objects(spec[key]).map((c, i) => ({ c, at: `${path}.${key}[${i}]` })));
}

/** IsValidUserID / IsValidGroupID. */
function idErrors(value: unknown, path: string): FieldError[] {
  const n = typeof value === 'number' ? value : 0;
  return n < 0 || n > 2147483647 ? [fieldError.invalid(path, value, inclusiveRange(0, 2147483647))] : [];
}

/** validateSeccompProfileField. */
function seccompProfileErrors(profile: unknown, path: string): FieldError[] {
  if (!isSet(profile)) return [];
  const p = obj(profile);
  const type = text(p['type']);
  const errs: FieldError[] = [];
  if (type === '') errs.push(fieldError.required(`${path}.type`, 'type is required when seccompProfile is set'));
  else if (!['Localhost', 'RuntimeDefault', 'Unconfined'].includes(type)) errs.push(fieldError.notSupported(`${path}.type`, type, ['Localhost', 'RuntimeDefault', 'Unconfined']));
  if (type === 'Localhost') {
    if (!isSet(p['localhostProfile'])) errs.push(fieldError.required(`${path}.localhostProfile`, 'must be set when seccomp type is Localhost'));
    else errs.push(...localDescendingPath(text(p['localhostProfile']), `${path}.localhostProfile`));
  } else if (isSet(p['localhostProfile'])) {
    errs.push(fieldError.invalid(`${path}.localhostProfile`, p, 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

const netBiosDomain = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/;
const dnsDomain = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** validateWindowsSecurityContextOptions. */
function windowsOptionsErrors(options: unknown, path: string): FieldError[] {
  if (!isSet(options)) return [];
  const o = obj(options);
  const errs: FieldError[] = [];
  if (isSet(o['gmsaCredentialSpecName'])) errs.push(...dns1123Subdomain(text(o['gmsaCredentialSpecName']), `${path}.gmsaCredentialSpecName`));
  if (isSet(o['gmsaCredentialSpec'])) {
    const spec = text(o['gmsaCredentialSpec']);
    if (spec.length === 0) errs.push(fieldError.invalid(`${path}.gmsaCredentialSpec`, spec, 'gmsaCredentialSpec cannot be an empty string'));
    else if (Buffer.byteLength(spec) > 64 * 1024) errs.push(fieldError.invalid(`${path}.gmsaCredentialSpec`, spec, 'gmsaCredentialSpec size must be under 64 KiB'));
  }
  if (isSet(o['runAsUserName'])) {
    const name = text(o['runAsUserName']);
    const at = `${path}.runAsUserName`;
    const bad = (msg: string): void => {
      errs.push(fieldError.invalid(at, name, msg));
    };
    const parts = name.split('\\');
    if (name.length === 0) bad('runAsUserName cannot be an empty string');
    // eslint-disable-next-line no-control-regex
    else if (/[\u0000-\u001f\u007f]/.test(name)) bad('runAsUserName cannot contain control characters');
    else if (parts.length > 2) bad('runAsUserName cannot contain more than one backslash');
    else {
      const domain = parts.length === 2 ? parts[0]! : '';
      const user = parts.length === 2 ? parts[1]! : parts[0]!;
      if (domain.length >= 256) bad("runAsUserName's Domain length must be under 256 characters");
      if (parts.length === 2 && !netBiosDomain.test(domain) && !dnsDomain.test(domain)) bad("runAsUserName's Domain doesn't match the NetBios nor the DNS format");
      if (user.length === 0) bad("runAsUserName's User cannot be empty");
      else if (user.length > 104) bad("runAsUserName's User length must not be longer than 104 characters");
      if (/^[. ]+$/.test(user)) bad("runAsUserName's User cannot contain only periods or spaces");
      if (/["/\\:;|=,+*?<>@[\]]/.test(user)) bad('runAsUserName\'s User cannot contain the following characters: "/\\:;|=,+*?<>@[]');
    }
  }
  return errs;
}

const sysctlFormat = '([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const sysctlPattern = new RegExp(`^${sysctlFormat}$`);

/** validateSysctls (1.27). */
function sysctlErrors(sysctls: unknown, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  objects(sysctls).forEach((s, i) => {
    const name = text(s['name']);
    const at = `${path}[${i}].name`;
    if (name === '') errs.push(fieldError.required(at));
    else if (name.length > 253 || !sysctlPattern.test(name)) errs.push(fieldError.invalid(at, name, `must have at most 253 characters and match regex ^${sysctlFormat}$`));
    else if (names.has(name)) errs.push(fieldError.duplicate(at, name));
    names.add(name);
  });
  return errs;
}

/** validatePodSpecSecurityContext at `path` (`spec.securityContext`). */
export function podSecurityContextErrors(sc: unknown, path: string): FieldError[] {
  if (!isSet(sc)) return [];
  const s = obj(sc);
  const errs: FieldError[] = [];
  if (isSet(s['fsGroup'])) errs.push(...idErrors(s['fsGroup'], `${path}.fsGroup`));
  if (isSet(s['runAsUser'])) errs.push(...idErrors(s['runAsUser'], `${path}.runAsUser`));
  if (isSet(s['runAsGroup'])) errs.push(...idErrors(s['runAsGroup'], `${path}.runAsGroup`));
  list(s['supplementalGroups']).forEach((g, i) => errs.push(...idErrors(g, `${path}.supplementalGroups[${i}]`)));
  if (list(s['sysctls']).length > 0) errs.push(...sysctlErrors(s['sysctls'], `${path}.sysctls`));
  if (isSet(s['fsGroupChangePolicy'])) {
    const policy = text(s['fsGroupChangePolicy']);
    if (policy !== 'Always' && policy !== 'OnRootMismatch') errs.push(fieldError.notSupported(`${path}.fsGroupChangePolicy`, policy, ['Always', 'OnRootMismatch']));
  }
  return [...errs, ...seccompProfileErrors(s['seccompProfile'], `${path}.seccompProfile`), ...windowsOptionsErrors(s['windowsOptions'], `${path}.windowsOptions`)];
}

/** The pod-level switches kept in the internal PodSecurityContext, checked with it (hostPID beside shareProcessNamespace). */
export function podNamespaceErrors(spec: Json, path: string): FieldError[] {
  if (spec['shareProcessNamespace'] === true && spec['hostPID'] === true) {
    return [fieldError.invalid(`${path}.securityContext.shareProcessNamespace`, true, 'ShareProcessNamespace and HostPID cannot both be enabled')];
  }
  return [];
}

/** ValidateSecurityContext (a container's) at `path`; `hostUsers` is false only for pods in a user namespace. */
export function containerSecurityContextErrors(sc: unknown, path: string, hostUsers: boolean): FieldError[] {
  if (!isSet(sc)) return [];
  const s = obj(sc);
  const errs: FieldError[] = [];
  if (isSet(s['runAsUser'])) errs.push(...idErrors(s['runAsUser'], `${path}.runAsUser`));
  if (isSet(s['runAsGroup'])) errs.push(...idErrors(s['runAsGroup'], `${path}.runAsGroup`));
  if (isSet(s['procMount'])) {
    errs.push(...oneOf(s['procMount'], `${path}.procMount`, ['Default', 'Unmasked'], true));
    if (hostUsers && s['procMount'] === 'Unmasked') errs.push(fieldError.invalid(`${path}.procMount`, s['procMount'], '`hostUsers` must be false to use `Unmasked`'));
  }
  errs.push(...seccompProfileErrors(s['seccompProfile'], `${path}.seccompProfile`));
  if (s['allowPrivilegeEscalation'] === false) {
    if (s['privileged'] === true) errs.push(fieldError.invalid(path, s, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    for (const cap of list(obj(s['capabilities'])['add'])) {
      if (cap === 'CAP_SYS_ADMIN') errs.push(fieldError.invalid(path, s, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  return [...errs, ...windowsOptionsErrors(s['windowsOptions'], `${path}.windowsOptions`)];
}

/** validateWindowsHostProcessPod: all containers host-process or none, on the host network. */
export function hostProcessErrors(spec: Json, path: string): FieldError[] {
  const podValue = obj(obj(spec['securityContext'])['windowsOptions'])['hostProcess'];
  const errs: FieldError[] = [];
  let count = 0;
  let hostProcess = 0;
  for (const { c, at } of containersWithPaths(spec, path)) {
    count++;
    const value = obj(obj(c['securityContext'])['windowsOptions'])['hostProcess'];
    if (typeof podValue === 'boolean' && typeof value === 'boolean' && podValue !== value) {
      errs.push(fieldError.invalid(`${at}.securityContext.windowsOptions.hostProcess`, value, `pod hostProcess value must be identical if both are specified, was ${String(podValue)}`));
    }
    if (value === true || (value === undefined && podValue === true)) hostProcess++;
  }
  if (hostProcess > 0) {
    if (hostProcess !== count) errs.push(fieldError.invalid(path, '', 'If pod contains any hostProcess containers then all containers must be HostProcess containers'));
    if (spec['hostNetwork'] !== true) errs.push(fieldError.invalid(`${path}.hostNetwork`, false, 'hostNetwork must be true if pod contains any hostProcess containers'));
  }
  return errs;
}

/** validateOS and, for a valid OS, what a Linux (validateLinux) or Windows (validateWindows) pod may not set. */
export function osErrors(spec: Json, path: string): FieldError[] {
  if (!isSet(spec['os'])) return [];
  const name = text(obj(spec['os'])['name']);
  if (name === '') return [fieldError.required(`${path}.os.name`, 'cannot be empty')];
  if (name !== 'linux' && name !== 'windows') return [fieldError.notSupported(`${path}.os`, name, ['linux', 'windows'])];
  const sc = obj(spec['securityContext']);
  const errs: FieldError[] = [];
  if (name === 'linux') {
    if (isSet(sc['windowsOptions'])) errs.push(fieldError.forbidden(`${path}.securityContext.windowsOptions`, 'windows options cannot be set for a linux pod'));
    for (const { c, at } of containersWithPaths(spec, path)) {
      if (isSet(obj(c['securityContext'])['windowsOptions'])) errs.push(fieldError.forbidden(`${at}.securityContext.windowsOptions`, 'windows options cannot be set for a linux pod'));
    }
    return errs;
  }
  const cannot = (at: string): void => {
    errs.push(fieldError.forbidden(at, 'cannot be set for a windows pod'));
  };
  if (isSet(spec['securityContext'])) {
    if (isSet(sc['seLinuxOptions'])) cannot(`${path}.securityContext.seLinuxOptions`);
    if (isSet(spec['hostUsers'])) cannot(`${path}.hostUsers`);
    if (spec['hostPID'] === true) cannot(`${path}.hostPID`);
    if (spec['hostIPC'] === true) cannot(`${path}.hostIPC`);
    if (isSet(sc['seccompProfile'])) cannot(`${path}.securityContext.seccompProfile`);
    if (isSet(sc['fsGroup'])) cannot(`${path}.securityContext.fsGroup`);
    if (isSet(sc['fsGroupChangePolicy'])) cannot(`${path}.securityContext.fsGroupChangePolicy`);
    if (list(sc['sysctls']).length > 0) cannot(`${path}.securityContext.sysctls`);
    if (isSet(spec['shareProcessNamespace'])) cannot(`${path}.shareProcessNamespace`);
    if (isSet(sc['runAsUser'])) cannot(`${path}.securityContext.runAsUser`);
    if (isSet(sc['runAsGroup'])) cannot(`${path}.securityContext.runAsGroup`);
    if (isSet(sc['supplementalGroups'])) cannot(`${path}.securityContext.supplementalGroups`);
  }
  for (const { c, at } of containersWithPaths(spec, path)) {
    if (!isSet(c['securityContext'])) continue;
    const s = obj(c['securityContext']);
    for (const field of ['seLinuxOptions', 'seccompProfile', 'capabilities', 'readOnlyRootFilesystem', 'privileged', 'allowPrivilegeEscalation', 'procMount', 'runAsUser', 'runAsGroup']) {
      if (isSet(s[field])) cannot(`${at}.securityContext.${field}`);
    }
  }
  return errs;
}

/** ValidateSeccompProfile (an annotation's value). */
function seccompAnnotationValueErrors(value: string, path: string): FieldError[] {
  if (value === 'runtime/default' || value === 'docker/default' || value === 'unconfined') return [];
  if (value.startsWith('localhost/')) return localDescendingPath(value.slice('localhost/'.length), path);
  return [fieldError.invalid(path, value, 'must be a valid seccomp profile')];
}

/** The annotation keys the seccomp and AppArmor checks read (renamed in the svc flavour). */
export interface SecurityAnnotationKeys {
  readonly seccompPod: string;
  readonly seccompContainerPrefix: string;
  readonly appArmorContainerPrefix: string;
}

/** ValidateSeccompPodAnnotations and ValidateAppArmorPodAnnotations at `path` (`metadata.annotations`). */
export function securityAnnotationErrors(annotations: Json, spec: Json, keys: SecurityAnnotationKeys, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (annotations[keys.seccompPod] !== undefined) errs.push(...seccompAnnotationValueErrors(text(annotations[keys.seccompPod]), `${path}.${keys.seccompPod}`));
  const names = new Set(containersWithPaths(spec, '').map(({ c }) => text(c['name'])));
  for (const [key, value] of Object.entries(annotations)) {
    if (key.startsWith(keys.seccompContainerPrefix)) errs.push(...seccompAnnotationValueErrors(text(value), `${path}.${key}`));
    if (!key.startsWith(keys.appArmorContainerPrefix)) continue;
    const container = key.slice(keys.appArmorContainerPrefix.length);
    if (!names.has(container)) errs.push(fieldError.invalid(`${path}[${key}]`, container, 'container not found'));
    const profile = text(value);
    if (profile !== '' && profile !== 'runtime/default' && profile !== 'unconfined' && !profile.startsWith('localhost/')) {
      errs.push(fieldError.invalid(`${path}[${key}]`, profile, `invalid AppArmor profile name: ${JSON.stringify(profile)}`));
    }
  }
  return errs;
}

/** validateSeccompAnnotationsAndFieldsMatch: an annotation beside a field must say the same. */
function seccompMatch(annotation: string, profile: Json, path: string): FieldError[] {
  const type = text(profile['type']);
  const mismatch = (field: string, what: string): FieldError[] => [fieldError.forbidden(`${path}.${field}`, `seccomp ${what} in annotation and field must match`)];
  if (type === 'Unconfined' && annotation !== 'unconfined') return mismatch('type', 'type');
  if (type === 'RuntimeDefault' && annotation !== 'runtime/default' && annotation !== 'docker/default') return mismatch('type', 'type');
  if (type === 'Localhost') {
    if (!annotation.startsWith('localhost/')) return mismatch('type', 'type');
    if (!isSet(profile['localhostProfile']) || annotation.slice('localhost/'.length) !== text(profile['localhostProfile'])) return mismatch('localhostProfile', 'profile');
  }
  return [];
}

/** validateSeccompAnnotationsAndFields (pods on create and pod templates). */
export function seccompAnnotationFieldErrors(annotations: Json, spec: Json, keys: SecurityAnnotationKeys, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const podProfile = obj(spec['securityContext'])['seccompProfile'];
  const podAnnotation = annotations[keys.seccompPod];
  if (isSet(podProfile) && typeof podAnnotation === 'string') errs.push(...seccompMatch(podAnnotation, obj(podProfile), `${path}.securityContext.seccompProfile`));
  for (const { c, at } of containersWithPaths(spec, path)) {
    const profile = obj(c['securityContext'])['seccompProfile'];
    const annotation = annotations[`${keys.seccompContainerPrefix}${text(c['name'])}`];
    if (isSet(profile) && typeof annotation === 'string') errs.push(...seccompMatch(annotation, obj(profile), `${at}.securityContext.seccompProfile`));
  }
  return errs;
}
