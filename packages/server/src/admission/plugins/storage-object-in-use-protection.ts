/**
 * StorageObjectInUseProtection (plugin/pkg/admission/storage/storageobjectinuseprotection): new claims get the
 * `<domain>/pvc-protection` finalizer and new volumes `<domain>/pv-protection`, so neither disappears while in
 * use; the pvc-protection and pv-protection controllers remove the finalizer once nothing uses them.
 */
import type { Names } from '@svc-apiserver/api';
import { admitted, type AdmissionPlugin } from '../plugin.js';

/** The plugin's name. */
export const storageObjectInUseProtectionPluginName = 'StorageObjectInUseProtection';

/** The finalizers, by resource. */
export function protectionFinalizers(names: Names): Readonly<Record<'persistentvolumeclaims' | 'persistentvolumes', string>> {
  return { persistentvolumeclaims: names.domain('pvc-protection'), persistentvolumes: names.domain('pv-protection') };
}

/** Creates the plugin. */
export function storageObjectInUseProtectionPlugin(names: Names): AdmissionPlugin {
  const finalizers = protectionFinalizers(names);
  return {
    name: storageObjectInUseProtectionPluginName,
    enabledByDefault: true,
    handles: (operation) => operation === 'CREATE',
    actsOn: (group, resource) => group === '' && (resource === 'persistentvolumeclaims' || resource === 'persistentvolumes'),
    admit(a) {
      if (a.group !== '' || a.subresource !== '' || a.object === undefined) return admitted;
      if (a.resource !== 'persistentvolumeclaims' && a.resource !== 'persistentvolumes') return admitted;
      const finalizer = finalizers[a.resource];
      const meta = (a.object.metadata ??= {});
      const current = Array.isArray(meta.finalizers) ? meta.finalizers : [];
      if (!current.includes(finalizer)) meta.finalizers = [...current, finalizer];
      return admitted;
    },
  };
}
