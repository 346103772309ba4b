/**
 * The checks of the Pod Security Standards (k8s.io/pod-security-admission/policy, as of 1.27): each has an ID, a
 * level, and versioned implementations that apply from their minimum version on; a restricted check may override
 * baseline checks it supersedes. Results carry kube's reason and detail wording, which the admission message
 * joins as `reason (detail), ...`.
 */
import type { Names } from '@svc-apiserver/api';
import { asObject, objectsOf, stringMap, stringOf, type Json } from '../object-access.js';
import type { Level } from './policy-levels.js';

/** The outcome of one check. */
export type CheckResult = { readonly allowed: true } | { readonly allowed: false; readonly reason: string; readonly detail: string };

/** A check of a pod's metadata annotations and spec. */
export type CheckPod = (annotations: Readonly<Record<string, string>>, spec: Json) => CheckResult;

/** One implementation of a check, applying from `minMinor` (1.<minMinor>) on. */
export interface VersionedCheck {
  readonly minMinor: number;
  readonly check: CheckPod;
  /** Baseline checks this one supersedes at the restricted level. */
  readonly overrides?: readonly string[];
}

/** A check. */
export interface PodSecurityCheck {
  readonly id: string;
  readonly level: Exclude<Level, 'privileged'>;
  /** Ascending by minimum version. */
  readonly versions: readonly VersionedCheck[];
}

const allowed: CheckResult = { allowed: true };
const deny = (reason: string, detail: string): CheckResult => ({ allowed: false, reason, detail });
const pluralize = (one: string, many: string, n: number): string => (n === 1 ? one : many);
/** `"a", "b"` as Go's joinQuote writes it. */
const joinQuote = (items: readonly string[]): string => items.map((i) => JSON.stringify(i)).join(', ');
const sortedUnique = (items: Iterable<string>): string[] => [...new Set(items)].sort();

/** Containers in kube's visiting order: init, regular, ephemeral. */
function containers(spec: Json): Json[] {
  return ['initContainers', 'containers', 'ephemeralContainers'].flatMap((k) => objectsOf(spec[k]));
}
const securityContext = (c: Json): Json | undefined => asObject(c['securityContext']);
const podSecurityContext = (spec: Json): Json | undefined => asObject(spec['securityContext']);
const nameOf = (c: Json): string => stringOf(c['name']);
/** `container "a"` / `containers "a", "b"`. */
const containerList = (names: readonly string[]): string => `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;

/** 1.25's relaxation of three restricted checks for pods declaring `spec.os.name: windows`. */
const skipForWindows = (check: CheckPod): CheckPod => (annotations, spec) =>
  stringOf(asObject(spec['os'])?.['name']) === 'windows' ? allowed : check(annotations, spec);

const hostNamespaces: CheckPod = (_a, spec) => {
  const used = ['hostIPC', 'hostNetwork', 'hostPID'].filter((k) => spec[k] === true);
  return used.length === 0 ? allowed : deny('host namespaces', used.join(', '));
};

const privileged: CheckPod = (_a, spec) => {
  const bad = containers(spec).filter((c) => securityContext(c)?.['privileged'] === true).map(nameOf);
  return bad.length === 0 ? allowed : deny('privileged', `${containerList(bad)} must not set securityContext.privileged=true`);
};

const baselineCapabilities = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP',
  'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);

const capabilitiesBaseline: CheckPod = (_a, spec) => {
  const bad: string[] = [];
  const caps: string[] = [];
  for (const c of containers(spec)) {
    const added = asObject(securityContext(c)?.['capabilities'])?.['add'];
    const forbidden = (Array.isArray(added) ? added : []).map(String).filter((cap) => !baselineCapabilities.has(cap));
    if (forbidden.length > 0) {
      bad.push(nameOf(c));
      caps.push(...forbidden);
    }
  }
  if (bad.length === 0) return allowed;
  return deny('non-default capabilities', `${containerList(bad)} must not include ${joinQuote(sortedUnique(caps))} in securityContext.capabilities.add`);
};

const capabilitiesRestricted: CheckPod = (_a, spec) => {
  const missingDrop: string[] = [];
  const addingForbidden: string[] = [];
  const forbiddenCaps: string[] = [];
  for (const c of containers(spec)) {
    const capabilities = asObject(securityContext(c)?.['capabilities']);
    if (capabilities === undefined) {
      missingDrop.push(nameOf(c));
      continue;
    }
    const drop = Array.isArray(capabilities['drop']) ? capabilities['drop'] : [];
    if (!drop.includes('ALL')) missingDrop.push(nameOf(c));
    const add = (Array.isArray(capabilities['add']) ? capabilities['add'] : []).map(String).filter((cap) => cap !== 'NET_BIND_SERVICE');
    if (add.length > 0) {
      addingForbidden.push(nameOf(c));
      forbiddenCaps.push(...add);
    }
  }
  const details: string[] = [];
  if (missingDrop.length > 0) details.push(`${containerList(missingDrop)} must set securityContext.capabilities.drop=["ALL"]`);
  if (addingForbidden.length > 0) {
    details.push(`${containerList(addingForbidden)} must not include ${joinQuote(sortedUnique(forbiddenCaps))} in securityContext.capabilities.add`);
  }
  return details.length === 0 ? allowed : deny('unrestricted capabilities', details.join('; '));
};

const hostPathVolumes: CheckPod = (_a, spec) => {
  const bad = objectsOf(spec['volumes']).filter((v) => v['hostPath'] !== undefined && v['hostPath'] !== null).map(nameOf);
  return bad.length === 0 ? allowed : deny('hostPath volumes', `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)}`);
};

const restrictedVolumeSources = ['hostPath', 'gcePersistentDisk', 'awsElasticBlockStore', 'gitRepo', 'nfs', 'iscsi', 'glusterfs', 'rbd', 'flexVolume',
  'cinder', 'cephfs', 'flocker', 'fc', 'azureFile', 'vsphereVolume', 'quobyte', 'azureDisk', 'photonPersistentDisk', 'portworxVolume', 'scaleIO',
  'storageos'];
const allowedVolumeSources = ['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret'];

const restrictedVolumes: CheckPod = (_a, spec) => {
  const bad: string[] = [];
  const types: string[] = [];
  for (const v of objectsOf(spec['volumes'])) {
    const set = (key: string) => v[key] !== undefined && v[key] !== null;
    if (allowedVolumeSources.some(set)) continue;
    bad.push(nameOf(v));
    types.push(restrictedVolumeSources.find(set) ?? 'unknown');
  }
  if (bad.length === 0) return allowed;
  const kinds = sortedUnique(types);
  return deny('restricted volume types', `${pluralize('volume', 'volumes', bad.length)} ${joinQuote(bad)} ${pluralize('uses', 'use', bad.length)} ` +
    `${pluralize('restricted volume type', 'restricted volume types', kinds.length)} ${joinQuote(kinds)}`);
};

const hostPorts: CheckPod = (_a, spec) => {
  const bad: string[] = [];
  const ports: string[] = [];
  for (const c of containers(spec)) {
    const used = objectsOf(c['ports']).map((p) => p['hostPort']).filter((p) => typeof p === 'number' && p !== 0);
    if (used.length > 0) {
      bad.push(nameOf(c));
      ports.push(...used.map(String));
    }
  }
  if (bad.length === 0) return allowed;
  const list = sortedUnique(ports);
  return deny('hostPort', `${containerList(bad)} ${pluralize('uses', 'use', bad.length)} ${pluralize('hostPort', 'hostPorts', list.length)} ${list.join(', ')}`);
};

const appArmorProfile = (names: Names): CheckPod => (annotations) => {
  const prefix = names.domain('', 'container.apparmor.security.beta');
  const bad = Object.entries(annotations)
    .filter(([k, v]) => k.startsWith(prefix) && !(v === '' || v === 'runtime/default' || v.startsWith('localhost/')))
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`).sort();
  if (bad.length === 0) return allowed;
  return deny(pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', bad.length), bad.join(', '));
};

const seLinuxTypes = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);

const seLinuxOptions: CheckPod = (_a, spec) => {
  const badTypes: string[] = [];
  let setUser = false;
  let setRole = false;
  const valid = (opts: Json): boolean => {
    let ok = true;
    const type = stringOf(opts['type']);
    if (!seLinuxTypes.has(type)) {
      ok = false;
      badTypes.push(type);
    }
    if (stringOf(opts['user']) !== '') {
      ok = false;
      setUser = true;
    }
    if (stringOf(opts['role']) !== '') {
      ok = false;
      setRole = true;
    }
    return ok;
  };
  const setters: string[] = [];
  const podOpts = asObject(podSecurityContext(spec)?.['seLinuxOptions']);
  if (podOpts !== undefined && !valid(podOpts)) setters.push('pod');
  const bad = containers(spec).filter((c) => {
    const opts = asObject(securityContext(c)?.['seLinuxOptions']);
    return opts !== undefined && !valid(opts);
  }).map(nameOf);
  if (bad.length > 0) setters.push(containerList(bad));
  if (setters.length === 0) return allowed;
  const data: string[] = [];
  const types = sortedUnique(badTypes);
  if (types.length > 0) data.push(`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`);
  if (setUser) data.push('user may not be set');
  if (setRole) data.push('role may not be set');
  return deny('seLinuxOptions', `${setters.join(' and ')} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}`);
};

const procMount: CheckPod = (_a, spec) => {
  const bad: string[] = [];
  const types: string[] = [];
  for (const c of containers(spec)) {
    const mount = securityContext(c)?.['procMount'];
    if (mount === undefined || mount === null || mount === 'Default') continue;
    bad.push(nameOf(c));
    types.push(String(mount));
  }
  if (bad.length === 0) return allowed;
  return deny('procMount', `${containerList(bad)} must not set securityContext.procMount to ${joinQuote(sortedUnique(types))}`);
};

const validSeccompType = (t: unknown): boolean => t === 'RuntimeDefault' || t === 'Localhost';

/** seccompProfileBaseline_1_0: the alpha annotations may not say unconfined. */
const seccompBaselineAnnotations = (names: Names): CheckPod => (annotations, spec) => {
  const podKey = names.domain('pod', 'seccomp.security.alpha');
  const containerPrefix = names.domain('', 'container.seccomp.security.alpha');
  const validValue = (v: string) => v === 'runtime/default' || v === 'docker/default' || v.startsWith('localhost/');
  const bad: string[] = [];
  const podValue = annotations[podKey];
  if (podValue !== undefined && !validValue(podValue)) bad.push(`${podKey}=${JSON.stringify(podValue)}`);
  for (const c of containers(spec)) {
    const key = containerPrefix + nameOf(c);
    const v = annotations[key];
    if (v !== undefined && !validValue(v)) bad.push(`${key}=${JSON.stringify(v)}`);
  }
  if (bad.length === 0) return allowed;
  const list = sortedUnique(bad);
  return deny('seccompProfile', `forbidden ${pluralize('annotation', 'annotations', list.length)} ${list.join(', ')}`);
};

/** Who sets a seccomp profile type other than RuntimeDefault or Localhost, and which values. */
function explicitSeccomp(spec: Json): { setters: string[]; values: string[]; podSet: boolean; implicit: string[] } {
  const setters: string[] = [];
  const values: string[] = [];
  let podSet = false;
  const podProfile = asObject(podSecurityContext(spec)?.['seccompProfile']);
  if (podProfile !== undefined) {
    if (!validSeccompType(podProfile['type'])) {
      setters.push('pod');
      values.push(stringOf(podProfile['type']));
    } else {
      podSet = true;
    }
  }
  const explicitBad: string[] = [];
  const implicit: string[] = [];
  for (const c of containers(spec)) {
    const profile = asObject(securityContext(c)?.['seccompProfile']);
    if (profile !== undefined) {
      if (!validSeccompType(profile['type'])) {
        explicitBad.push(nameOf(c));
        values.push(stringOf(profile['type']));
      }
    } else if (!podSet) {
      implicit.push(nameOf(c));
    }
  }
  if (explicitBad.length > 0) setters.push(containerList(explicitBad));
  return { setters, values: sortedUnique(values), podSet, implicit };
}

const seccompBaselineFields: CheckPod = (_a, spec) => {
  const { setters, values } = explicitSeccomp(spec);
  if (setters.length === 0) return allowed;
  return deny('seccompProfile', `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(values)}`);
};

const seccompRestricted: CheckPod = (_a, spec) => {
  const { setters, values, implicit } = explicitSeccomp(spec);
  if (setters.length > 0) {
    return deny('seccompProfile', `${setters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(values)}`);
  }
  if (implicit.length > 0) {
    return deny('seccompProfile', `pod or ${containerList(implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`);
  }
  return allowed;
};

const safeSysctls10 = ['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start'];
const sysctlsCheck = (safe: ReadonlySet<string>): CheckPod => (_a, spec) => {
  const bad = objectsOf(podSecurityContext(spec)?.['sysctls']).map((s) => stringOf(s['name'])).filter((n) => !safe.has(n));
  return bad.length === 0 ? allowed : deny('forbidden sysctls', bad.join(', '));
};

const windowsHostProcess: CheckPod = (_a, spec) => {
  const hostProcess = (sc: Json | undefined) => asObject(sc?.['windowsOptions'])?.['hostProcess'] === true;
  const setters: string[] = [];
  if (hostProcess(podSecurityContext(spec))) setters.push('pod');
  const bad = containers(spec).filter((c) => hostProcess(securityContext(c))).map(nameOf);
  if (bad.length > 0) setters.push(containerList(bad));
  if (setters.length === 0) return allowed;
  return deny('hostProcess', `${setters.join(' and ')} must not set securityContext.windowsOptions.hostProcess=true`);
};

const allowPrivilegeEscalation: CheckPod = (_a, spec) => {
  const bad = containers(spec).filter((c) => securityContext(c)?.['allowPrivilegeEscalation'] !== false).map(nameOf);
  return bad.length === 0 ? allowed : deny('allowPrivilegeEscalation != false', `${containerList(bad)} must set securityContext.allowPrivilegeEscalation=false`);
};

const runAsNonRoot: CheckPod = (_a, spec) => {
  const setters: string[] = [];
  let podNonRoot = false;
  const podValue = podSecurityContext(spec)?.['runAsNonRoot'];
  if (podValue === false) setters.push('pod');
  else if (podValue === true) podNonRoot = true;
  const explicitBad: string[] = [];
  const implicitBad: string[] = [];
  for (const c of containers(spec)) {
    const v = securityContext(c)?.['runAsNonRoot'];
    if (v === true || v === false) {
      if (v === false) explicitBad.push(nameOf(c));
    } else if (!podNonRoot) {
      implicitBad.push(nameOf(c));
    }
  }
  if (explicitBad.length > 0) setters.push(containerList(explicitBad));
  if (setters.length > 0) return deny('runAsNonRoot != true', `${setters.join(' and ')} must not set securityContext.runAsNonRoot=false`);
  if (implicitBad.length > 0) return deny('runAsNonRoot != true', `pod or ${containerList(implicitBad)} must set securityContext.runAsNonRoot=true`);
  return allowed;
};

const runAsUser: CheckPod = (_a, spec) => {
  const setters: string[] = [];
  if (podSecurityContext(spec)?.['runAsUser'] === 0) setters.push('pod');
  const bad = containers(spec).filter((c) => securityContext(c)?.['runAsUser'] === 0).map(nameOf);
  if (bad.length > 0) setters.push(containerList(bad));
  return setters.length === 0 ? allowed : deny('runAsUser=0', `${setters.join(' and ')} must not set runAsUser=0`);
};

/** Every check, as the 1.27 policy package defines them. */
export function podSecurityChecks(names: Names): PodSecurityCheck[] {
  const sysctls127 = new Set([...safeSysctls10, 'net.ipv4.ip_local_reserved_ports']);
  return [
    { id: 'appArmorProfile', level: 'baseline', versions: [{ minMinor: 0, check: appArmorProfile(names) }] },
    { id: 'capabilities_baseline', level: 'baseline', versions: [{ minMinor: 0, check: capabilitiesBaseline }] },
    { id: 'hostNamespaces', level: 'baseline', versions: [{ minMinor: 0, check: hostNamespaces }] },
    { id: 'hostPathVolumes', level: 'baseline', versions: [{ minMinor: 0, check: hostPathVolumes }] },
    { id: 'hostPorts', level: 'baseline', versions: [{ minMinor: 0, check: hostPorts }] },
    { id: 'privileged', level: 'baseline', versions: [{ minMinor: 0, check: privileged }] },
    { id: 'procMount', level: 'baseline', versions: [{ minMinor: 0, check: procMount }] },
    { id: 'seLinuxOptions', level: 'baseline', versions: [{ minMinor: 0, check: seLinuxOptions }] },
    {
      id: 'seccompProfile_baseline', level: 'baseline',
      versions: [{ minMinor: 0, check: seccompBaselineAnnotations(names) }, { minMinor: 19, check: seccompBaselineFields }],
    },
    {
      id: 'sysctls', level: 'baseline',
      versions: [{ minMinor: 0, check: sysctlsCheck(new Set(safeSysctls10)) }, { minMinor: 27, check: sysctlsCheck(sysctls127) }],
    },
    { id: 'windowsHostProcess', level: 'baseline', versions: [{ minMinor: 0, check: windowsHostProcess }] },
    {
      id: 'allowPrivilegeEscalation', level: 'restricted',
      versions: [{ minMinor: 8, check: allowPrivilegeEscalation }, { minMinor: 25, check: skipForWindows(allowPrivilegeEscalation) }],
    },
    {
      id: 'capabilities_restricted', level: 'restricted',
      versions: [
        { minMinor: 22, check: capabilitiesRestricted, overrides: ['capabilities_baseline'] },
        { minMinor: 25, check: skipForWindows(capabilitiesRestricted), overrides: ['capabilities_baseline'] },
      ],
    },
    { id: 'restrictedVolumes', level: 'restricted', versions: [{ minMinor: 0, check: restrictedVolumes, overrides: ['hostPathVolumes'] }] },
    { id: 'runAsNonRoot', level: 'restricted', versions: [{ minMinor: 0, check: runAsNonRoot }] },
    { id: 'runAsUser', level: 'restricted', versions: [{ minMinor: 23, check: runAsUser }] },
    {
      id: 'seccompProfile_restricted', level: 'restricted',
      versions: [
        { minMinor: 19, check: seccompRestricted, overrides: ['seccompProfile_baseline'] },
        { minMinor: 25, check: skipForWindows(seccompRestricted), overrides: ['seccompProfile_baseline'] },
      ],
    },
  ];
}

/** The annotations of a pod as the checks read them. */
export const podAnnotations = (metadata: unknown): Record<string, string> => stringMap(asObject(metadata)?.['annotations']);
