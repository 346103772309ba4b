/**
 * PersistentVolumeLabel (plugin/pkg/admission/storage/persistentvolume/label; deprecated since 1.13): a new
 * PersistentVolume backed by a cloud provider's disk (GCE PD, AWS EBS, Azure Disk, vSphere) gets the region and
 * zone labels that provider reports for the disk. This server is configured with no cloud provider, so such a
 * volume cannot be labelled and is refused as kube refuses it when the provider cannot be asked; other volumes
 * pass unchanged.
 */
import type { Names } from '@svc-apiserver/api';
import { admissionForbidden } from '../admission-errors.js';
import { asObject, specOf } from '../object-access.js';
import { admitted, refused, type AdmissionPlugin } from '../plugin.js';

/** The plugin's name. */
export const persistentVolumeLabelPluginName = 'PersistentVolumeLabel';

/** Cloud volume sources and how kube names their provider and volume in messages. */
const cloudSources: readonly (readonly [string, string, string])[] = [
  ['gcePersistentDisk', 'GCE PD', 'pdName'],
  ['awsElasticBlockStore', 'AWS EBS', 'volumeID'],
  ['azureDisk', 'Azure disk', 'diskName'],
  ['vsphereVolume', 'vSphere', 'volumePath'],
];

/** Creates the plugin. */
export function persistentVolumeLabelPlugin(_names: Names): AdmissionPlugin {
  return {
    name: persistentVolumeLabelPluginName,
    enabledByDefault: false,
    handles: (operation) => operation === 'CREATE',
    admit(a) {
      if (a.group !== '' || a.resource !== 'persistentvolumes' || a.subresource !== '' || a.object === undefined) return admitted;
      const spec = specOf(a.object);
      for (const [field, provider, idField] of cloudSources) {
        const source = asObject(spec[field]);
        if (source === undefined) continue;
        return refused(admissionForbidden(a,
          `error querying ${provider} volume ${String(source[idField] ?? '')}: no cloud provider is configured to label it`));
      }
      return admitted;
    },
  };
}
