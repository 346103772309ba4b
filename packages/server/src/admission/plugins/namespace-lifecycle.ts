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

/** Creates the plugin for a flavour's immortal namespaces. */
export function namespaceLifecyclePlugin(names: Names): InitializablePlugin {
  const immortal = new Set(names.immortalNamespaces);
  let deps: AdmissionDependencies | undefined;
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
      if (isNamespace || a.namespace === '' || a.operation === 'DELETE') return allowed;
      if (deps === undefined) throw new Error('NamespaceLifecycle used before initialize');
      const namespace = await deps.getNamespace(a.namespace);
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
