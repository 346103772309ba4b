/**
 * The lines kubectl prints for a PersistentVolumeClaim (printPersistentVolumeClaim), shared by the claim's own
 * layout and the claim template of an ephemeral Pod volume, with the storage helpers both volumes' layouts read:
 * the storage class (the beta annotation first) and the access modes' short forms.
 */
import type { Names } from '@svc-apiserver/api';
import { age } from '../age.js';
import type { Any } from './describe-context.js';
import { writeAnnotations, writeLabels, type DescribeWriter } from './describe-writer.js';
import { goSlice } from './go-format.js';
import { canonicalQuantity } from './quantity.js';

/** storageutil's GetPersistentVolumeClaimClass / GetPersistentVolumeClass: the beta annotation, else the spec's. */
export function storageClassOf(obj: Any, names: Names): string {
  const annotation = obj.metadata?.annotations?.[names.fromUpstream('volume.beta.kubernetes.io/storage-class')];
  return annotation ?? obj.spec?.storageClassName ?? '';
}

/** storageutil's GetAccessModesAsString: `RWO,ROX,RWX,RWOP` for the modes present, in that order. */
export function accessModesString(modes: unknown): string {
  const present = new Set(Array.isArray(modes) ? modes : []);
  return ([['ReadWriteOnce', 'RWO'], ['ReadOnlyMany', 'ROX'], ['ReadWriteMany', 'RWX'], ['ReadWriteOncePod', 'RWOP']] as const)
    .filter(([mode]) => present.has(mode)).map(([, short]) => short).join(',');
}

/** `Status:`, or `Terminating (lasts AGE)` once the object is being deleted. */
export function phaseOrTerminating(obj: Any): string {
  const deleting = obj.metadata?.deletionTimestamp;
  return deleting ? `Terminating (lasts ${age(deleting)})` : String(obj.status?.phase ?? '');
}

/**
 * kubectl's printPersistentVolumeClaim: the claim's storage class, volume, labels, annotations, capacity and
 * access modes (from its status once bound), volume mode and data source; `full` adds the name, namespace, status
 * and finalizers a claim template has none of.
 */
export function writePersistentVolumeClaim(w: DescribeWriter, pvc: Any, full: boolean, names: Names): void {
  const m: Any = pvc.metadata ?? {};
  const spec: Any = pvc.spec ?? {};
  if (full) {
    w.write(0, `Name:\t${m.name ?? ''}\n`);
    w.write(0, `Namespace:\t${m.namespace ?? ''}\n`);
  }
  w.write(0, `StorageClass:\t${storageClassOf(pvc, names)}\n`);
  if (full) w.write(0, `Status:\t${phaseOrTerminating(pvc)}\n`);
  w.write(0, `Volume:\t${spec.volumeName ?? ''}\n`);
  writeLabels(w, 'Labels', m.labels);
  writeAnnotations(w, 'Annotations', m.annotations, names.domain('last-applied-configuration', 'kubectl'));
  if (full) w.write(0, `Finalizers:\t${goSlice(m.finalizers)}\n`);
  const bound = (spec.volumeName ?? '') !== '';
  w.write(0, `Capacity:\t${bound ? canonicalQuantity(pvc.status?.capacity?.storage ?? 0) : ''}\n`);
  w.write(0, `Access Modes:\t${bound ? accessModesString(pvc.status?.accessModes) : ''}\n`);
  if (spec.volumeMode) w.write(0, `VolumeMode:\t${spec.volumeMode}\n`);
  if (spec.dataSource) {
    w.write(0, 'DataSource:\n');
    if (spec.dataSource.apiGroup !== undefined) w.write(1, `APIGroup:\t${spec.dataSource.apiGroup}\n`);
    w.write(1, `Kind:\t${spec.dataSource.kind ?? ''}\n`);
    w.write(1, `Name:\t${spec.dataSource.name ?? ''}\n`);
  }
}
