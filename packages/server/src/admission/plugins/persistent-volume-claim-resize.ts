/**
 * PersistentVolumeClaimResize (plugin/pkg/admission/storage/persistentvolume/resize): a claim's storage request
 * may grow only when the claim is bound and its StorageClass (the same before and after) has
 * `allowVolumeExpansion: true`. Shrinking and other updates are left to validation.
 */
import type { Names } from '@svc-apiserver/api';
import { compareQuantities, parseQuantity, zeroQuantity } from '../../meta/quantity.js';
import { admissionForbidden } from '../admission-errors.js';
import { annotationsOf, asObject, specOf, stringOf } from '../object-access.js';
import { dependencyHolder } from '../plugin-dependencies.js';
import { admitted, refused, type InitializablePlugin } from '../plugin.js';
import type { KubeObject } from '@svc-apiserver/api';

/** The plugin's name. */
export const persistentVolumeClaimResizePluginName = 'PersistentVolumeClaimResize';

/** The storage a claim requests. */
function requestedStorage(claim: KubeObject | undefined) {
  const requests = asObject(asObject(specOf(claim)['resources'])?.['requests']);
  return parseQuantity(requests?.['storage']) ?? zeroQuantity;
}

/** Creates the plugin. */
export function persistentVolumeClaimResizePlugin(names: Names): InitializablePlugin {
  const deps = dependencyHolder(persistentVolumeClaimResizePluginName);
  const storage = names.group('storage');
  const betaClassAnnotation = names.domain('storage-class', 'volume.beta');
  /** helper.GetPersistentVolumeClaimClass: the beta annotation, else `spec.storageClassName`. */
  const classOf = (claim: KubeObject | undefined): string => {
    const annotated = annotationsOf(claim)[betaClassAnnotation];
    return annotated ?? stringOf(specOf(claim)['storageClassName']);
  };
  return {
    name: persistentVolumeClaimResizePluginName,
    enabledByDefault: true,
    initialize: (d) => deps.set(d),
    handles: (operation) => operation === 'UPDATE',
    actsOn: (group, resource) => group === '' && resource === 'persistentvolumeclaims',
    async validate(a) {
      if (a.group !== '' || a.resource !== 'persistentvolumeclaims' || a.subresource !== '' || a.object === undefined) return admitted;
      if (compareQuantities(requestedStorage(a.object), requestedStorage(a.oldObject)) <= 0) return admitted;
      if (stringOf(asObject(a.oldObject?.['status'])?.['phase']) !== 'Bound') {
        return refused(admissionForbidden(a, 'Only bound persistent volume claims can be expanded'));
      }
      const newClass = classOf(a.object);
      let allowed = false;
      if (newClass !== '' && newClass === classOf(a.oldObject)) {
        const classes = await deps.informer(storage, 'storageclasses');
        allowed = classes?.get('', newClass)?.['allowVolumeExpansion'] === true;
      }
      if (!allowed) {
        return refused(admissionForbidden(a,
          'only dynamically provisioned pvc can be resized and the storageclass that provisions the pvc must support resize'));
      }
      return admitted;
    },
  };
}
