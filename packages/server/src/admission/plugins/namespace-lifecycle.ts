/**
 * NamespaceLifecycle (plugin/pkg/admission/namespace/lifecycle): refuses writes in namespaces that do not exist,
 * creation of new content in namespaces being terminated, and the deletion of the immortal namespaces
 * (`default`, the system and public namespaces).
 */
import { forbidden, notFound, type Names } from '@svc-apiserver/api';
import type { AdmissionDependencies, AdmissionResult, InitializablePlugin } from '../plugin.js';

/** The plugin's name as `--enable-admission-plugins` spells it. */
export const namespaceLifecyclePluginName = 'NamespaceLifecycle';

const allowed: AdmissionResult = { allowed: true };

/**
 * How long after a namespace's deletion passes admission its lookups skip the cache (kube's forceLiveLookupTTL):
 * the cache may not show the deletion's Terminating phase yet, and new content must be refused at once.
 */
const forceLiveLookupMs = 30_000;

/** Creates the plugin for a flavour's immortal namespaces. */
export function namespaceLifecyclePlugin(names: Names): InitializablePlugin {
  const immortal = new Set(names.immortalNamespaces);
  let deps: AdmissionDependencies | undefined;
  /** Namespaces deleted lately, with the time their lookups may use the cache again. */
  const forceLive = new Map<string, number>();
  const mustLookUpLive = (namespace: string, now: number): boolean => {
    const until = forceLive.get(namespace);
    if (until === undefined) return false;
    if (until > now) return true;
    forceLive.delete(namespace);
    return false;
  };
  return {
    name: namespaceLifecyclePluginName,
    enabledByDefault: true,
    initialize(dependencies) {
      deps = dependencies;
    },
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE' || operation === 'DELETE',
    async admit(a) {
      const isNamespace = a.group === '' && a.resource === 'namespaces';
      const qr = { group: a.group, resource: a.resource };
      if (a.operation === 'DELETE' && isNamespace && immortal.has(a.name)) {
        return { allowed: false, status: forbidden(qr, a.name, 'this namespace may not be deleted') };
      }
      if (a.operation === 'DELETE' && isNamespace) {
        const now = Date.now();
        for (const [name, until] of forceLive) if (until <= now) forceLive.delete(name);
        forceLive.set(a.name, now + forceLiveLookupMs);
      }
      if (isNamespace || a.namespace === '' || a.operation === 'DELETE') return allowed;
      if (deps === undefined) throw new Error('NamespaceLifecycle used before initialize');
      // Kube's order: the lister (watch cache, no storage round trip on the write path), then a live read when the
      // cache does not have the namespace (it may have just been created) or the namespace was deleted lately.
      let namespace = mustLookUpLive(a.namespace, Date.now()) ? undefined : await deps.getNamespace(a.namespace, { cached: true });
      namespace ??= await deps.getNamespace(a.namespace);
      if (namespace === undefined) return { allowed: false, status: notFound({ group: '', resource: 'namespaces' }, a.namespace) };
      const phase = (namespace.status as { phase?: string } | undefined)?.phase;
      if (a.operation === 'CREATE' && phase === 'Terminating') {
        const name = a.name || a.object?.metadata?.name || a.object?.metadata?.generateName || 'Unknown';
        const status = forbidden(qr, name, `unable to create new content in namespace ${a.namespace} because it is being terminated`);
        status.details = {
          ...(status.details ?? {}),
          causes: [{ reason: 'NamespaceTerminating', message: `namespace ${a.namespace} is being terminated`, field: 'metadata.namespace' }],
        };
        return { allowed: false, status };
      }
      return allowed;
    },
  };
}
