/**
 * The `cluster-info` bootstrap (what kubeadm's bootstrap-token phase does, as a post-start hook here): the
 * ConfigMap `cluster-info` in the public namespace holds `kubeconfig`, a kubeconfig with this server's URL and CA;
 * the Role and RoleBinding `system:bootstrap-signer-clusterinfo` there let anonymous clients `get` it, so a joining
 * client reads it before it has credentials and checks it against the bootstrapsigner's signatures. A stale
 * `kubeconfig` (the server moved) is rewritten; signatures are the bootstrapsigner's business.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import type { HealthCheck } from '../health/health-check.js';
import { clusterInfoKubeconfigYaml } from '../pki/kubeconfig.js';
import { createObject } from '../registry/operations/create-object.js';
import { updateObject } from '../registry/operations/update-object.js';
import type { Registry } from '../registry/registry.js';
import { clusterInfoName } from './bootstrapsigner/bootstrap-signer.js';
import { loopbackContext } from '../registry/operations/loopback.js';
import { runPostStartHook } from './post-start-hook.js';

/** The name of the Role and RoleBinding that open `cluster-info` to anonymous readers. */
export const clusterInfoViewerName = 'system:bootstrap-signer-clusterinfo';


/** What the hook writes. */
export interface ClusterInfoOptions {
  /** The URL joining clients reach this server at. */
  readonly server: string;
  /** The CA that verifies it (PEM). */
  readonly caPem: string;
  readonly retryMs?: number;
  readonly log?: (message: string) => void;
}

/** A running hook. */
export interface ClusterInfo {
  readonly checks: HealthCheck[];
  readonly done: Promise<void>;
  stop(): void;
}

/** Starts the hook. */
export function startClusterInfo(registry: Registry, names: Names, options: ClusterInfoOptions): ClusterInfo {
  const namespace = names.name('publicNamespace');
  const rbac = names.group('rbac.authorization');
  const kubeconfig = clusterInfoKubeconfigYaml(options.server, options.caPem);
  const ensure = async (resource: string, group: string, object: KubeObject, stale?: (current: KubeObject) => KubeObject | undefined): Promise<string | undefined> => {
    const def = registry.lookup(group, 'v1', resource);
    if (def === undefined) return undefined;
    const got = await registry.store.get(def, namespace, object.metadata?.name ?? '');
    if (got.ok) {
      const next = stale?.(got.value);
      if (next === undefined) return undefined;
      const updated = await updateObject(registry, def, '', next, got.value, loopbackContext(registry.names, 'apiserver'));
      return updated.ok ? undefined : `updating ${resource} ${object.metadata?.name ?? ''}: ${updated.error.message ?? 'failed'}`;
    }
    if (got.error.code !== 404) return `reading ${resource} ${object.metadata?.name ?? ''}: ${got.error.message ?? 'failed'}`;
    const created = await createObject(registry, def, object, loopbackContext(registry.names, 'apiserver'));
    if (created.ok || created.error.reason === 'AlreadyExists') return undefined;
    return `creating ${resource} ${object.metadata?.name ?? ''}: ${created.error.message ?? 'failed'}`;
  };
  const hook = runPostStartHook(async () => {
    const configMap = await ensure('configmaps', '', {
      apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: clusterInfoName, namespace }, data: { kubeconfig },
    }, (current) => {
      const data = (current as { data?: Record<string, string> }).data ?? {};
      if (data['kubeconfig'] === kubeconfig) return undefined;
      return { ...structuredClone(current), data: { ...data, kubeconfig } } as KubeObject;
    });
    if (configMap !== undefined) return configMap;
    const role = await ensure('roles', rbac, {
      apiVersion: `${rbac}/v1`, kind: 'Role', metadata: { name: clusterInfoViewerName, namespace },
      rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: [clusterInfoName], verbs: ['get'] }],
    });
    if (role !== undefined) return role;
    return ensure('rolebindings', rbac, {
      apiVersion: `${rbac}/v1`, kind: 'RoleBinding', metadata: { name: clusterInfoViewerName, namespace },
      roleRef: { apiGroup: rbac, kind: 'Role', name: clusterInfoViewerName },
      subjects: [{ apiGroup: rbac, kind: 'User', name: 'system:anonymous' }],
    });
  }, options.retryMs ?? 1000, options.log);
  return { checks: [{ name: 'poststarthook/bootstrap-cluster-info', check: hook.check }], done: hook.done, stop: hook.stop };
}
