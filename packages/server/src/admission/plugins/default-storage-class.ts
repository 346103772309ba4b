/**
 * DefaultStorageClass (plugin/pkg/admission/storage/storageclass/setdefault): a new PersistentVolumeClaim that
 * names no class (no `spec.storageClassName`, not even `""`, and no beta class annotation) gets the StorageClass
 * annotated as default (`storageclass.<domain>/is-default-class: "true"`, or its beta form). With no default
 * nothing changes; with several defaults the claim is refused.
 */
import type { Names } from '@svc-apiserver/api';
import { admissionForbidden } from '../admission-errors.js';
import { annotationsOf, childObject } from '../object-access.js';
import { dependencyHolder } from '../plugin-dependencies.js';
import { admitted, refused, type InitializablePlugin } from '../plugin.js';
import { defaultClassOf } from './default-ingress-class.js';

/** The plugin's name. */
export const defaultStorageClassPluginName = 'DefaultStorageClass';

/** Creates the plugin. */
export function defaultStorageClassPlugin(names: Names): InitializablePlugin {
  const deps = dependencyHolder(defaultStorageClassPluginName);
  const storage = names.group('storage');
  const defaultAnnotations = [names.domain('is-default-class', 'storageclass'), names.domain('is-default-class', 'storageclass.beta')];
  const betaClassAnnotation = names.domain('storage-class', 'volume.beta');
  return {
    name: defaultStorageClassPluginName,
    enabledByDefault: true,
    initialize: (d) => deps.set(d),
    handles: (operation) => operation === 'CREATE',
    actsOn: (group, resource) => group === '' && resource === 'persistentvolumeclaims',
    async admit(a) {
      if (a.group !== '' || a.resource !== 'persistentvolumeclaims' || a.subresource !== '' || a.object === undefined) return admitted;
      const spec = childObject(a.object, 'spec');
      if (typeof spec['storageClassName'] === 'string' || betaClassAnnotation in annotationsOf(a.object)) return admitted;
      const classes = await deps.informer(storage, 'storageclasses');
      const found = defaultClassOf(classes?.list() ?? [], defaultAnnotations);
      if (found === undefined) return admitted;
      if ('several' in found) return refused(admissionForbidden(a, `Internal error occurred: ${found.several} default StorageClasses were found`));
      spec['storageClassName'] = found.metadata?.name ?? '';
      return admitted;
    },
  };
}
