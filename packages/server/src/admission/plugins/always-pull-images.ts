/**
 * AlwaysPullImages (plugin/pkg/admission/alwayspullimages): every container of a new pod, and of a pod update that
 * brings new images, gets `imagePullPolicy: Always`, so a node pulls (and checks the pull credentials of) every
 * image instead of using one cached for another pod. The validating phase refuses pods whose policy is not
 * Always (a later mutating webhook may have changed it back).
 */
import { fieldError, fieldErrorMessage, type Names } from '@svc-apiserver/api';
import { admissionForbidden } from '../admission-errors.js';
import { admitted, refused, type AdmissionAttributes, type AdmissionPlugin } from '../plugin.js';
import { containersOf, specOf, stringOf } from '../object-access.js';

/** The plugin's name. */
export const alwaysPullImagesPluginName = 'AlwaysPullImages';

/** True for requests the plugin leaves alone: anything but pods themselves. */
function ignored(a: AdmissionAttributes): boolean {
  return a.subresource !== '' || a.group !== '' || a.resource !== 'pods' || a.object === undefined;
}

/** The images of a pod. */
function images(a: AdmissionAttributes['object']): Set<string> {
  return new Set(containersOf(specOf(a)).map(({ container }) => stringOf(container['image'])));
}

/** An update whose images were all in the pod before (kube's isUpdateWithNoNewImages). */
function bringsNoNewImages(a: AdmissionAttributes): boolean {
  if (a.operation !== 'UPDATE' || a.oldObject === undefined) return false;
  const before = images(a.oldObject);
  return [...images(a.object)].every((image) => before.has(image));
}

/** Creates the plugin. */
export function alwaysPullImagesPlugin(_names: Names): AdmissionPlugin {
  return {
    name: alwaysPullImagesPluginName,
    enabledByDefault: false,
    handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
    admit(a) {
      if (ignored(a) || bringsNoNewImages(a)) return admitted;
      for (const { container } of containersOf(specOf(a.object))) container['imagePullPolicy'] = 'Always';
      return admitted;
    },
    validate(a) {
      if (ignored(a) || bringsNoNewImages(a)) return admitted;
      for (const { container, list, index } of containersOf(specOf(a.object))) {
        const policy = container['imagePullPolicy'];
        if (policy !== 'Always') {
          const err = fieldError.notSupported(`spec.${list}[${index}].imagePullPolicy`, policy ?? '', ['Always']);
          return refused(admissionForbidden(a, fieldErrorMessage(err)));
        }
      }
      return admitted;
    },
  };
}
