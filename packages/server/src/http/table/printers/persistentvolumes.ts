/**
 * PersistentVolumes: Name, Capacity, Access Modes, Reclaim Policy, Status, Claim, StorageClass, Reason, Age;
 * wide: VolumeMode (printPersistentVolume, 1.27).
 */
import { ageColumn, docColumn, nameColumn, type PrintContext, type TablePrinter } from '../printer.js';
import { accessModes, get, quantity, record, since, str } from '../format.js';

const spec = 'io.k8s.api.core.v1.PersistentVolumeSpec';
const status = 'io.k8s.api.core.v1.PersistentVolumeStatus';

/** The storage class of a volume or claim: the beta annotation wins over `spec.storageClassName`. */
export function storageClass(obj: Record<string, unknown>, ctx: PrintContext): string | undefined {
  const annotation = record(obj, 'metadata', 'annotations')[ctx.names.fromUpstream('volume.beta.kubernetes.io') + '/storage-class'];
  if (typeof annotation === 'string') return annotation;
  const v = get(obj, 'spec', 'storageClassName');
  return typeof v === 'string' ? v : undefined;
}

/** The persistentvolumes printer. */
export const persistentVolumePrinter: TablePrinter = {
  columns: [
    nameColumn,
    docColumn('Capacity', spec, 'capacity'),
    docColumn('Access Modes', spec, 'accessModes'),
    docColumn('Reclaim Policy', spec, 'persistentVolumeReclaimPolicy'),
    docColumn('Status', status, 'phase'),
    docColumn('Claim', spec, 'claimRef'),
    { name: 'StorageClass', description: 'StorageClass of the pv' },
    docColumn('Reason', status, 'reason'),
    ageColumn,
    docColumn('VolumeMode', spec, 'volumeMode', { priority: 1 }),
  ],
  cells(pv, ctx) {
    const claim = get(pv, 'spec', 'claimRef') !== undefined ? `${str(pv, 'spec', 'claimRef', 'namespace')}/${str(pv, 'spec', 'claimRef', 'name')}` : '';
    const phase = get(pv, 'metadata', 'deletionTimestamp') !== undefined ? 'Terminating' : str(pv, 'status', 'phase');
    return [
      str(pv, 'metadata', 'name'), quantity(get(pv, 'spec', 'capacity', 'storage')), accessModes(get(pv, 'spec', 'accessModes')),
      str(pv, 'spec', 'persistentVolumeReclaimPolicy'), phase, claim, storageClass(pv, ctx) ?? '', str(pv, 'status', 'reason'),
      since(get(pv, 'metadata', 'creationTimestamp'), ctx.now), str(pv, 'spec', 'volumeMode') || '<unset>',
    ];
  },
};
