/**
 * ServiceAccount (plugin/pkg/admission/serviceaccount), on Pod creation:
 *
 * - `spec.serviceAccountName` defaults to `default`; an account that does not exist is refused (403 "error looking
 *   up service account <ns>/<name>: serviceaccount "<name>" not found"). The `default` account is looked for a
 *   little longer, as the service account controller creates it just after its namespace.
 * - Unless `automountServiceAccountToken` is false on the Pod or on its account, a projected volume
 *   `kube-api-access-<random>` (a bound token valid 3607 s, the root CA ConfigMap's `ca.crt`, the namespace) is added
 *   and mounted read-only at the service account path in every container and init container that has nothing
 *   mounted there.
 * - The account's `imagePullSecrets` are copied to a Pod that has none.
 * - With the account's `<domain>/enforce-mountable-secrets: "true"`, the Pod may only use the Secrets the account
 *   lists (volumes, env) and its image pull secrets.
 * - Mirror pods (annotation `<domain>/config.mirror`) are not changed, and may not name a service account, use
 *   Secrets or a service account token projection.
 *
 * Updates of `ephemeralcontainers` are checked against the account's mountable Secrets too.
 */
import { fail, ok, type KubeObject, type Names, type Result } from '@svc-apiserver/api';
import { generateName } from '../../meta/generate-name.js';
import type { AdmissionAttributes, AdmissionResult } from '../plugin.js';
import { admissionForbidden } from './admission-forbidden.js';
import type { ServiceAccountReader, WantsServiceAccounts } from './plugin-initializers.js';

/** The plugin's name as `--enable-admission-plugins` spells it. */
export const serviceAccountPluginName = 'ServiceAccount';

/**
 * The account a Pod runs as when it names none, which every active namespace has (kube's DefaultServiceAccountName,
 * which this plugin's package declares too; the service account controller creates it).
 */
export const defaultServiceAccountName = 'default';

/** Prefix of the token volume's name (not renamed: kube's ServiceAccountVolumeName in both flavours). */
export const tokenVolumePrefix = 'kube-api-access-';

/** The projected token's lifetime (kube's WarnOnlyBoundTokenExpirationSeconds: an hour and a little). */
export const tokenExpirationSeconds = 3607;

type Json = Record<string, unknown>;
const allowed: AdmissionResult = { allowed: true };

const record = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined);
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map((x) => record(x) ?? {}) : []);
const nameOf = (v: unknown): string => (typeof record(v)?.['name'] === 'string' ? (record(v)!['name'] as string) : '');

/** Options of {@link serviceAccountPlugin}. */
export interface ServiceAccountPluginOptions {
  /** Pause between live lookups of a missing `default` account (kube: 100 to 200 ms at random). */
  readonly retryDelayMs?: () => number;
  /** How many live lookups a missing `default` account gets (kube: 10). */
  readonly defaultAttempts?: number;
}

/** The projected volume source of the token volume (kube's TokenVolumeSource). */
export function tokenVolumeSource(names: Names): Json {
  return {
    defaultMode: 420,
    sources: [
      { serviceAccountToken: { expirationSeconds: tokenExpirationSeconds, path: 'token' } },
      { configMap: { name: names.name('rootCaConfigMap'), items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
      { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
    ],
  };
}

/** Adds the token volume and its mounts (kube's mountServiceAccountToken). */
function mountServiceAccountToken(spec: Json, names: Names): void {
  const mountPath = names.name('serviceAccountMountPath');
  const volumes = list(spec['volumes']);
  const existing = volumes.find((v) => nameOf(v).startsWith(tokenVolumePrefix));
  const volumeName = existing !== undefined ? nameOf(existing) : generateName(tokenVolumePrefix);
  let needsVolume = false;
  for (const key of ['initContainers', 'containers']) {
    const containers = spec[key];
    if (!Array.isArray(containers)) continue;
    for (const c of containers) {
      const container = record(c);
      if (container === undefined) continue;
      const mounts = list(container['volumeMounts']);
      if (mounts.some((m) => m['mountPath'] === mountPath)) continue;
      container['volumeMounts'] = [...(Array.isArray(container['volumeMounts']) ? container['volumeMounts'] : []), { name: volumeName, readOnly: true, mountPath }];
      needsVolume = true;
    }
  }
  if (existing === undefined && needsVolume) {
    spec['volumes'] = [...(Array.isArray(spec['volumes']) ? spec['volumes'] : []), { name: volumeName, projected: tokenVolumeSource(names) }];
  }
}

/**
 * True unless the Pod or its account says `automountServiceAccountToken: false` (document 3 §Service accounts item
 * 3; kube 1.27 lets a Pod's `true` override its account's `false`, the document does not).
 */
function shouldAutomount(account: KubeObject, spec: Json): boolean {
  return spec['automountServiceAccountToken'] !== false && (account as Json)['automountServiceAccountToken'] !== false;
}

/** Volume sources that name a Secret in `secretRef.name` (VisitPodSecretNames). */
const secretRefSources = ['cephfs', 'cinder', 'flexVolume', 'rbd', 'scaleIO', 'iscsi', 'storageos'];

/** True when the Pod references any Secret (VisitPodSecretNames over every container kind). */
function referencesSecrets(spec: Json): boolean {
  if (list(spec['imagePullSecrets']).length > 0) return true;
  for (const key of ['initContainers', 'containers', 'ephemeralContainers']) {
    for (const c of list(spec[key])) {
      if (list(c['envFrom']).some((e) => record(e['secretRef']) !== undefined)) return true;
      if (list(c['env']).some((e) => record(record(e['valueFrom'])?.['secretKeyRef']) !== undefined)) return true;
    }
  }
  for (const v of list(spec['volumes'])) {
    if (record(v['secret']) !== undefined || record(v['azureFile']) !== undefined) return true;
    if (secretRefSources.some((s) => record(record(v[s])?.['secretRef']) !== undefined)) return true;
    if (record(record(v['csi'])?.['nodePublishSecretRef']) !== undefined) return true;
    if (list(record(v['projected'])?.['sources']).some((s) => record(s['secret']) !== undefined)) return true;
  }
  return false;
}

/** Why a Pod's Secret use goes beyond what its account lists (kube's limitSecretReferences), or undefined. */
function secretReferenceProblem(account: KubeObject, spec: Json, containerKeys: readonly string[], checkVolumesAndPullSecrets: boolean): string | undefined {
  const accountName = account.metadata?.name ?? '';
  const mountable = new Set(list((account as Json)['secrets']).map(nameOf));
  if (checkVolumesAndPullSecrets) {
    for (const v of list(spec['volumes'])) {
      const secret = record(v['secret']);
      if (secret === undefined) continue;
      const secretName = typeof secret['secretName'] === 'string' ? secret['secretName'] : '';
      if (!mountable.has(secretName)) {
        return `volume with secret.secretName="${secretName}" is not allowed because service account ${accountName} does not reference that secret`;
      }
    }
  }
  const labels: Readonly<Record<string, string>> = { initContainers: 'init container', containers: 'container', ephemeralContainers: 'ephemeral container' };
  for (const key of containerKeys) {
    for (const c of list(spec[key])) {
      for (const env of list(c['env'])) {
        const ref = record(record(env['valueFrom'])?.['secretKeyRef']);
        if (ref === undefined || mountable.has(nameOf(ref))) continue;
        return `${labels[key]} ${nameOf(c)} with envVar ${nameOf(env)} referencing secret.secretName="${nameOf(ref)}" is not allowed because service account ${accountName} does not reference that secret`;
      }
    }
  }
  if (checkVolumesAndPullSecrets) {
    const pullSecrets = new Set(list((account as Json)['imagePullSecrets']).map(nameOf));
    const refs = list(spec['imagePullSecrets']);
    for (let i = 0; i < refs.length; i++) {
      const secretName = nameOf(refs[i]);
      if (!pullSecrets.has(secretName)) {
        return `imagePullSecrets[${i}].name="${secretName}" is not allowed because service account ${accountName} does not reference that imagePullSecret`;
      }
    }
  }
  return undefined;
}

/** Creates the plugin of a flavour. */
export function serviceAccountPlugin(names: Names, options: ServiceAccountPluginOptions = {}): WantsServiceAccounts {
  const mirrorAnnotation = names.domain('config.mirror');
  const enforceAnnotation = names.domain('enforce-mountable-secrets');
  const retryDelayMs = options.retryDelayMs ?? (() => 100 + Math.floor(Math.random() * 100));
  const defaultAttempts = options.defaultAttempts ?? 10;
  let reader: ServiceAccountReader | undefined;

  /** The account from the cache, else live (several times for `default`); an error text when it cannot be had. */
  const getServiceAccount = async (namespace: string, name: string): Promise<Result<KubeObject, string>> => {
    if (reader === undefined) throw new Error(`${serviceAccountPluginName} used before it was given a service account reader`);
    const cached = await reader(namespace, name, { cached: true });
    if (cached.ok && cached.value !== undefined) return ok(cached.value);
    const attempts = name === defaultServiceAccountName ? defaultAttempts : 1;
    for (let i = 0; i < attempts; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, retryDelayMs()));
      const live = await reader(namespace, name, { cached: false });
      if (!live.ok) return live;
      if (live.value !== undefined) return ok(live.value);
    }
    return fail(`serviceaccount ${JSON.stringify(name)} not found`);
  };

  const lookupFailure = (a: AdmissionAttributes, name: string, error: string): AdmissionResult =>
    ({ allowed: false, status: admissionForbidden(a, `error looking up service account ${a.namespace}/${name}: ${error}`) });

  const isPodRequest = (a: AdmissionAttributes): boolean =>
    a.group === '' && a.resource === 'pods' && (a.subresource === '' || a.subresource === 'ephemeralcontainers') && record(a.object) !== undefined;

  const isMirror = (pod: KubeObject): boolean => pod.metadata?.annotations?.[mirrorAnnotation] !== undefined;
  const enforcesMountableSecrets = (account: KubeObject): boolean => account.metadata?.annotations?.[enforceAnnotation] === 'true';
  const specOf = (pod: KubeObject): Json => {
    const spec = record((pod as Json)['spec']);
    if (spec !== undefined) return spec;
    const created: Json = {};
    (pod as Json)['spec'] = created;
    return created;
  };

  const validatePod = async (a: AdmissionAttributes): Promise<AdmissionResult> => {
    const pod = a.object!;
    const spec = specOf(pod);
    if (a.operation === 'UPDATE' && a.subresource === 'ephemeralcontainers') {
      const name = typeof spec['serviceAccountName'] === 'string' ? spec['serviceAccountName'] : '';
      if (name === '') return { allowed: false, status: admissionForbidden(a, `no service account specified for pod ${a.namespace}/${pod.metadata?.name ?? ''}`) };
      const account = await getServiceAccount(a.namespace, name);
      if (!account.ok) return lookupFailure(a, name, account.error);
      if (!enforcesMountableSecrets(account.value)) return allowed;
      const problem = secretReferenceProblem(account.value, spec, ['ephemeralContainers'], false);
      return problem === undefined ? allowed : { allowed: false, status: admissionForbidden(a, problem) };
    }
    if (a.operation !== 'CREATE' || a.subresource !== '') return allowed;
    if (isMirror(pod)) {
      if (typeof spec['serviceAccountName'] === 'string' && spec['serviceAccountName'] !== '') {
        return { allowed: false, status: admissionForbidden(a, 'a mirror pod may not reference service accounts') };
      }
      if (referencesSecrets(spec)) return { allowed: false, status: admissionForbidden(a, 'a mirror pod may not reference secrets') };
      for (const v of list(spec['volumes'])) {
        if (list(record(v['projected'])?.['sources']).some((s) => record(s['serviceAccountToken']) !== undefined)) {
          return { allowed: false, status: admissionForbidden(a, 'a mirror pod may not use ServiceAccountToken volume projections') };
        }
      }
      return allowed;
    }
    const name = typeof spec['serviceAccountName'] === 'string' ? spec['serviceAccountName'] : '';
    if (name === '') return { allowed: false, status: admissionForbidden(a, `no service account specified for pod ${a.namespace}/${pod.metadata?.name ?? ''}`) };
    const account = await getServiceAccount(a.namespace, name);
    if (!account.ok) return lookupFailure(a, name, account.error);
    if (enforcesMountableSecrets(account.value)) {
      const problem = secretReferenceProblem(account.value, spec, ['initContainers', 'containers'], true);
      if (problem !== undefined) return { allowed: false, status: admissionForbidden(a, problem) };
    }
    return allowed;
  };

  return {
    name: serviceAccountPluginName,
    enabledByDefault: true,
    setServiceAccountReader(r) {
      reader = r;
    },
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    actsOn: (group, resource) => group === '' && resource === 'pods',
    async admit(a) {
      if (!isPodRequest(a) || a.operation !== 'CREATE' || a.subresource !== '') return allowed;
      const pod = a.object!;
      if (isMirror(pod)) return validatePod(a);
      const spec = specOf(pod);
      // The deprecated alias names the account when the field does not (kube's v1 conversion, which runs before).
      if ((typeof spec['serviceAccountName'] !== 'string' || spec['serviceAccountName'] === '') && typeof spec['serviceAccount'] === 'string' && spec['serviceAccount'] !== '') {
        spec['serviceAccountName'] = spec['serviceAccount'];
      }
      if (typeof spec['serviceAccountName'] !== 'string' || spec['serviceAccountName'] === '') spec['serviceAccountName'] = defaultServiceAccountName;
      const name = spec['serviceAccountName'] as string;
      const account = await getServiceAccount(a.namespace, name);
      if (!account.ok) return lookupFailure(a, name, account.error);
      if (shouldAutomount(account.value, spec)) mountServiceAccountToken(spec, names);
      if (list(spec['imagePullSecrets']).length === 0) {
        const pullSecrets = list((account.value as Json)['imagePullSecrets']).map((s) => ({ name: nameOf(s) }));
        if (pullSecrets.length > 0) spec['imagePullSecrets'] = pullSecrets;
      }
      return validatePod(a);
    },
    async validate(a) {
      if (!isPodRequest(a)) return allowed;
      return validatePod(a);
    },
  };
}
