/**
 * The warnings kube-apiserver 1.27 returns for a pod or pod template on create and update (pkg/api/pod
 * GetWarningsForPod and GetWarningsForPodTemplate): deprecated node labels in node selectors, node affinity and
 * topology spread keys, a null topology spread selector, deprecated and non-functional annotations (critical-pod,
 * sysctls, seccomp without the field), deprecated volume plugins, duplicate host alias IPs, image pull secret names
 * and env names, empty pull secret names, fractional byte quantities and a negative grace period. Names in the
 * label and annotation domain come from the naming table.
 */
import type { Names } from '@svc-apiserver/api';
import { record } from '../conversion/resource-conversion.js';
import { formatQuantity, milliValue, parseQuantity } from '../../meta/quantity.js';

type Json = Record<string, unknown>;

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** GetNodeLabelDeprecatedMessage's table in a flavour. */
function deprecatedNodeLabels(names: Names): Map<string, string> {
  const use = (label: string): string => `use ${JSON.stringify(label)} instead`;
  return new Map([
    [names.domain('arch', 'beta'), `deprecated since v1.14; ${use(names.domain('arch'))}`],
    [names.domain('os', 'beta'), `deprecated since v1.14; ${use(names.domain('os'))}`],
    [names.domain('region', 'failure-domain.beta'), `deprecated since v1.17; ${use(names.domain('region', 'topology'))}`],
    [names.domain('zone', 'failure-domain.beta'), `deprecated since v1.17; ${use(names.domain('zone', 'topology'))}`],
    [names.domain('instance-type', 'beta'), `deprecated since v1.17; ${use(names.domain('instance-type', 'node'))}`],
  ]);
}

/** A byte quantity that is not whole, printed as kube prints it (Quantity.String, canonical). */
function byteQuantityWarning(value: unknown, path: string): string[] {
  const q = parseQuantity(value);
  return q !== undefined && milliValue(q) % 1000n !== 0n ? [`${path}: fractional byte value ${JSON.stringify(formatQuantity(q))} is invalid, must be an integer`] : [];
}

function duplicates(items: unknown[], key: string, path: (i: number) => string, what: string): string[] {
  const seen = new Set<unknown>();
  const out: string[] = [];
  items.forEach((item, i) => {
    const v = record(item)?.[key];
    if (seen.has(v)) out.push(`${path(i)}: duplicate ${what} ${JSON.stringify(v ?? '')}`);
    else seen.add(v);
  });
  return out;
}

/** GetWarningsForNodeSelectorTerm: deprecated node labels in a node selector term's expressions. */
export function nodeSelectorTermWarnings(names: Names, term: unknown, path: string): string[] {
  const labels = deprecatedNodeLabels(names);
  const out: string[] = [];
  list(record(term)?.['matchExpressions']).forEach((e, i) => {
    const key = String(record(e)?.['key'] ?? '');
    const msg = labels.get(key);
    if (msg !== undefined) out.push(`${path}.matchExpressions[${i}].key: ${key} is ${msg}`);
  });
  return out;
}

/**
 * warningsForPodSpecAndMeta: the warnings of a pod spec and its metadata, paths under `prefix` (`''` for a pod,
 * `spec.template.` for a template).
 */
export function podWarnings(names: Names, spec: Json, meta: Json, prefix = ''): string[] {
  const labels = deprecatedNodeLabels(names);
  const out: string[] = [];
  for (const k of Object.keys(record(spec['nodeSelector']) ?? {})) {
    const msg = labels.get(k);
    if (msg !== undefined) out.push(`${prefix}spec.nodeSelector[${k}]: ${msg}`);
  }
  const nodeAffinity = record(record(spec['affinity'])?.['nodeAffinity']);
  const termWarnings = (term: unknown, path: string): void => {
    out.push(...nodeSelectorTermWarnings(names, term, path));
  };
  list(record(nodeAffinity?.['requiredDuringSchedulingIgnoredDuringExecution'])?.['nodeSelectorTerms']).forEach((t, i) => {
    termWarnings(t, `${prefix}spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[${i}]`);
  });
  list(nodeAffinity?.['preferredDuringSchedulingIgnoredDuringExecution']).forEach((t, i) => {
    termWarnings(record(t)?.['preference'], `${prefix}spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[${i}].preference`);
  });
  list(spec['topologySpreadConstraints']).forEach((raw, i) => {
    const c = record(raw) ?? {};
    const key = String(c['topologyKey'] ?? '');
    const msg = labels.get(key);
    if (msg !== undefined) out.push(`${prefix}spec.topologySpreadConstraints[${i}].topologyKey: ${key} is ${msg}`);
    if (c['labelSelector'] === undefined || c['labelSelector'] === null) out.push(`${prefix}spec.topologySpreadConstraints[${i}].labelSelector: a null labelSelector results in matching no pod`);
  });
  const annotations = record(meta['annotations']) ?? {};
  const deprecatedAnnotations: [string, string][] = [
    [names.domain('critical-pod', 'scheduler.alpha'), 'non-functional in v1.16+; use the "priorityClassName" field instead'],
    [names.domain('sysctls', 'security.alpha'), 'non-functional in v1.11+; use the "sysctls" field instead'],
    [names.domain('unsafe-sysctls', 'security.alpha'), 'non-functional in v1.11+; use the "sysctls" field instead'],
  ];
  for (const [key, msg] of deprecatedAnnotations) if (annotations[key] !== undefined) out.push(`${prefix}metadata.annotations[${key}]: ${msg}`);
  const volumePlugins: [string, string][] = [
    ['photonPersistentDisk', 'deprecated in v1.11, non-functional in v1.16+'], ['gitRepo', 'deprecated in v1.11'],
    ['scaleIO', 'deprecated in v1.16, non-functional in v1.22+'], ['flocker', 'deprecated in v1.22, support removal is planned in v1.26'],
    ['storageos', 'deprecated in v1.22, support removal is planned in v1.26'], ['quobyte', 'deprecated in v1.22, support removal is planned in v1.26'],
    ['glusterfs', 'deprecated in v1.25, this feature will be removed in a future release'],
  ];
  list(spec['volumes']).forEach((raw, i) => {
    const v = record(raw) ?? {};
    for (const [field, msg] of volumePlugins) {
      if (v[field] !== undefined && v[field] !== null) out.push(`${prefix}spec.volumes[${i}].${field === 'storageos' ? 'storageOS' : field}: ${msg}`);
    }
  });
  const hostAliases = list(spec['hostAliases']);
  if (hostAliases.length > 1) out.push(...duplicates(hostAliases, 'ip', (i) => `${prefix}spec.hostAliases[${i}].ip`, 'ip'));
  const pullSecrets = list(spec['imagePullSecrets']);
  if (pullSecrets.length > 1) out.push(...duplicates(pullSecrets, 'name', (i) => `${prefix}spec.imagePullSecrets[${i}].name`, 'name'));
  pullSecrets.forEach((s, i) => {
    const name = record(s)?.['name'];
    if (typeof name !== 'string' || name === '') out.push(`${prefix}spec.imagePullSecrets[${i}].name: invalid empty name ""`);
  });
  const overhead = record(spec['overhead']) ?? {};
  for (const r of ['memory', 'ephemeral-storage']) if (overhead[r] !== undefined) out.push(...byteQuantityWarning(overhead[r], `${prefix}spec.overhead[${r}]`));
  const podSeccomp = names.domain('pod', 'seccomp.security.alpha');
  if (record(record(spec['securityContext'])?.['seccompProfile']) === undefined && annotations[podSeccomp] !== undefined) {
    out.push(`${prefix}metadata.annotations[${podSeccomp}]: non-functional in v1.27+; use the "seccompProfile" field instead`);
  }
  const containerSeccomp = names.domain('', 'container.seccomp.security.alpha');
  for (const key of ['initContainers', 'containers', 'ephemeralContainers']) {
    list(spec[key]).forEach((raw, i) => {
      const c = record(raw) ?? {};
      const path = `${prefix}spec.${key}[${i}]`;
      const annotation = `${containerSeccomp}${String(c['name'] ?? '')}`;
      if (record(record(c['securityContext'])?.['seccompProfile']) === undefined && annotations[annotation] !== undefined) {
        out.push(`${prefix}metadata.annotations[${annotation}]: non-functional in v1.27+; use the "seccompProfile" field instead`);
      }
      const resources = record(c['resources']) ?? {};
      for (const kind of ['limits', 'requests']) {
        for (const r of ['memory', 'ephemeral-storage']) {
          const q = record(resources[kind])?.[r];
          if (q !== undefined) out.push(...byteQuantityWarning(q, `${path}.resources.${kind}[${r}]`));
        }
      }
      const env = list(c['env']);
      if (env.length > 1) out.push(...duplicates(env, 'name', (j) => `${path}.env[${j}].name`, 'name'));
    });
  }
  const grace = spec['terminationGracePeriodSeconds'];
  if (typeof grace === 'number' && grace < 0) out.push(`${prefix}spec.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1`);
  return out;
}

/** GetWarningsForPodTemplate: the warnings of `object[templatePath]`, paths under it. */
export function podTemplateWarnings(names: Names, template: unknown, prefix: string): string[] {
  const t = record(template);
  if (t === undefined) return [];
  return podWarnings(names, record(t['spec']) ?? {}, record(t['metadata']) ?? {}, prefix);
}
