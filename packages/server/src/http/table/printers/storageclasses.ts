/**
 * StorageClasses: Name (` (default)` appended for the default class), Provisioner, ReclaimPolicy (`Delete` when
 * unset), VolumeBindingMode (`Immediate`), AllowVolumeExpansion (false), Age (printStorageClass, 1.27).
 */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, record, since, str } from '../format.js';

const sc = 'io.k8s.api.storage.v1.StorageClass';

/** The storageclasses printer. */
export const storageClassPrinter: TablePrinter = {
  columns: [
    nameColumn,
    docColumn('Provisioner', sc, 'provisioner'),
    docColumn('ReclaimPolicy', sc, 'reclaimPolicy'),
    docColumn('VolumeBindingMode', sc, 'volumeBindingMode'),
    docColumn('AllowVolumeExpansion', sc, 'allowVolumeExpansion'),
    ageColumn,
  ],
  cells(obj, ctx) {
    const annotations = record(obj, 'metadata', 'annotations');
    const isDefault = ['storageclass.kubernetes.io', 'storageclass.beta.kubernetes.io']
      .some((domain) => annotations[`${ctx.names.fromUpstream(domain)}/is-default-class`] === 'true');
    const reclaim = get(obj, 'reclaimPolicy');
    const binding = get(obj, 'volumeBindingMode');
    return [
      str(obj, 'metadata', 'name') + (isDefault ? ' (default)' : ''), str(obj, 'provisioner'),
      typeof reclaim === 'string' ? reclaim : 'Delete', typeof binding === 'string' ? binding : 'Immediate',
      get(obj, 'allowVolumeExpansion') === true, since(get(obj, 'metadata', 'creationTimestamp'), ctx.now),
    ];
  },
};
