/**
 * PersistentVolumeClaims: Name, Status, Volume, Capacity, Access Modes, StorageClass, Age; wide: VolumeMode
 * (printPersistentVolumeClaim, 1.27). Capacity and access modes show only once the claim is bound to a volume.
 */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { accessModes, get, quantity, since, str } from '../format.js';
import { storageClass } from './persistentvolumes.js';

const spec = 'io.k8s.api.core.v1.PersistentVolumeClaimSpec';
const status = 'io.k8s.api.core.v1.PersistentVolumeClaimStatus';

/** The persistentvolumeclaims printer. */
export const persistentVolumeClaimPrinter: TablePrinter = {
  columns: [
    nameColumn,
    docColumn('Status', status, 'phase'),
    docColumn('Volume', spec, 'volumeName'),
    docColumn('Capacity', status, 'capacity'),
    docColumn('Access Modes', status, 'accessModes'),
    { name: 'StorageClass', description: 'StorageClass of the pvc' },
    ageColumn,
    docColumn('VolumeMode', spec, 'volumeMode', { priority: 1 }),
  ],
  cells(pvc, ctx) {
    const phase = get(pvc, 'metadata', 'deletionTimestamp') !== undefined ? 'Terminating' : str(pvc, 'status', 'phase');
    const bound = str(pvc, 'spec', 'volumeName') !== '';
    return [
      str(pvc, 'metadata', 'name'), phase, str(pvc, 'spec', 'volumeName'),
      bound ? quantity(get(pvc, 'status', 'capacity', 'storage')) : '', bound ? accessModes(get(pvc, 'status', 'accessModes')) : '',
      storageClass(pvc, ctx) ?? '', since(get(pvc, 'metadata', 'creationTimestamp'), ctx.now), str(pvc, 'spec', 'volumeMode') || '<unset>',
    ];
  },
};
