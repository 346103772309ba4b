/**
 * NamespaceAutoProvision (plugin/pkg/admission/namespace/autoprovision): creating an object in a namespace that
 * does not exist creates the namespace first (through the guarded write path, as the server's loopback identity),
 * for clusters that treat namespaces as implicit. Dry runs create nothing.
 */
import type { Names } from '@svc-apiserver/api';
import { createObject } from '../../registry/operations/create-object.js';
import { loopbackContext } from '../../registry/operations/loopback.js';
import { admissionForbidden } from '../admission-errors.js';
import { dependencyHolder } from '../plugin-dependencies.js';
import { admitted, refused, type InitializablePlugin } from '../plugin.js';

/** The plugin's name. */
export const namespaceAutoProvisionPluginName = 'NamespaceAutoProvision';

/** Creates the plugin. */
export function namespaceAutoProvisionPlugin(_names: Names): InitializablePlugin {
  const deps = dependencyHolder(namespaceAutoProvisionPluginName);
  return {
    name: namespaceAutoProvisionPluginName,
    enabledByDefault: false,
    initialize: (d) => deps.set(d),
    handles: (operation) => operation === 'CREATE',
    async admit(a) {
      if ((a.group === '' && a.kind === 'Namespace') || a.namespace === '' || a.dryRun) return admitted;
      if (await deps.get().getNamespace(a.namespace, { cached: true }) !== undefined) return admitted;
      const registry = deps.registry();
      const def = registry.lookup('', 'v1', 'namespaces');
      if (def === undefined) return admitted;
      const created = await createObject(registry, def, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: a.namespace } },
        loopbackContext(registry.names, 'apiserver'));
      if (created.ok || created.error.reason === 'AlreadyExists') return admitted;
      // kube wraps the failure of the create in the request's own Forbidden.
      return refused(admissionForbidden(a, created.error.message ?? 'namespace could not be created'));
    },
  };
}
