/**
 * NamespaceExists (plugin/pkg/admission/namespace/exists): a request for an object in a namespace that does not
 * exist fails with the namespace's NotFound. The cache is asked first; a miss is checked against storage, as the
 * namespace may have been created an instant ago.
 */
import { notFound, type Names } from '@svc-apiserver/api';
import { dependencyHolder } from '../plugin-dependencies.js';
import { admitted, refused, type InitializablePlugin } from '../plugin.js';

/** The plugin's name. */
export const namespaceExistsPluginName = 'NamespaceExists';

/** Creates the plugin. */
export function namespaceExistsPlugin(_names: Names): InitializablePlugin {
  const deps = dependencyHolder(namespaceExistsPluginName);
  return {
    name: namespaceExistsPluginName,
    enabledByDefault: false,
    initialize: (d) => deps.set(d),
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE' || operation === 'DELETE',
    async validate(a) {
      if ((a.group === '' && a.kind === 'Namespace') || a.namespace === '') return admitted;
      const d = deps.get();
      if (await d.getNamespace(a.namespace, { cached: true }) !== undefined) return admitted;
      if (await d.getNamespace(a.namespace) !== undefined) return admitted;
      return refused(notFound({ group: '', resource: 'namespaces' }, a.namespace));
    },
  };
}
