/**
 * kubectl's layouts of a PersistentVolumeClaim (with the Pods that use it, found among its namespace's Pods, and
 * its conditions) and of a PersistentVolume (claim, reclaim policy, node affinity and source), each with its
 * Events.
 */
import { core, meta, type Any, type Describer } from './describe-context.js';
import { writeAnnotations, writeEvents, writeLabels, type DescribeWriter } from './describe-writer.js';
import { goSlice, rfc1123z } from './go-format.js';
import { accessModesString, phaseOrTerminating, storageClassOf, writePersistentVolumeClaim } from './persistent-volume-claim-lines.js';
import { canonicalQuantity } from './quantity.js';
import { writePersistentVolumeSource } from './volume-sources.js';

/** kubectl's PersistentVolumeClaim layout. */
export const persistentVolumeClaimDescriber: Describer = async (w, ctx) => {
  const pvc = ctx.obj as Any;
  const m = meta(ctx.obj);
  const pods = await ctx.list(core('pods'), { namespace: m.namespace });
  if (!pods.ok) return pods.error;
  // a Pod is listed once for each of its volumes that mounts the claim, as kubectl lists it
  const users: string[] = [];
  for (const pod of pods.value as Any[]) {
    for (const v of pod.spec?.volumes ?? []) if (v.persistentVolumeClaim?.claimName === m.name) users.push(String(pod.metadata?.name ?? ''));
  }
  writePersistentVolumeClaim(w, pvc, true, ctx.names);
  w.write(0, 'Used By:\t');
  if (users.length === 0) w.writeLine('<none>');
  users.sort().forEach((name, i) => w.write(0, `${i === 0 ? '' : '\t'}${name}\n`));
  const conditions: Any[] = pvc.status?.conditions ?? [];
  if (conditions.length > 0) {
    w.write(0, 'Conditions:\n');
    w.write(1, 'Type\tStatus\tLastProbeTime\tLastTransitionTime\tReason\tMessage\n');
    w.write(1, '----\t------\t-----------------\t------------------\t------\t-------\n');
    for (const c of conditions) {
      w.write(1, `${c.type ?? ''} \t${c.status ?? ''} \t${rfc1123z(c.lastProbeTime)} \t${rfc1123z(c.lastTransitionTime)} \t${c.reason ?? ''} \t${c.message ?? ''}\n`);
    }
  }
  writeEvents(w, await ctx.events());
};

/** kubectl's printVolumeNodeAffinity: the required node selector terms, one match expression a line. */
function writeNodeAffinity(w: DescribeWriter, affinity: Any | undefined): void {
  w.write(0, 'Node Affinity:\t');
  if (!affinity?.required) {
    w.writeLine('<none>');
    return;
  }
  w.writeLine('');
  w.write(1, 'Required Terms:\t');
  const terms: Any[] = affinity.required.nodeSelectorTerms ?? [];
  if (terms.length === 0) {
    w.writeLine('<none>');
    return;
  }
  w.writeLine('');
  terms.forEach((term, i) => {
    w.write(2, `Term ${i}:\t`);
    const reqs: Any[] = term.matchExpressions ?? [];
    if (reqs.length === 0) w.writeLine('<none>');
    reqs.forEach((req, j) => {
      if (j !== 0) w.write(2, '\t');
      const values: string[] = req.values ?? [];
      w.write(0, `${req.key ?? ''} ${String(req.operator ?? '').toLowerCase()}${values.length > 0 ? ` [${values.join(', ')}]` : ''}\n`);
    });
  });
}

/** kubectl's PersistentVolume layout. */
export const persistentVolumeDescriber: Describer = async (w, ctx) => {
  const pv = ctx.obj as Any;
  const spec: Any = pv.spec ?? {};
  const m = meta(ctx.obj);
  w.write(0, `Name:\t${m.name ?? ''}\n`);
  writeLabels(w, 'Labels', m.labels);
  writeAnnotations(w, 'Annotations', m.annotations, ctx.lastApplied);
  w.write(0, `Finalizers:\t${goSlice(m.finalizers)}\n`);
  w.write(0, `StorageClass:\t${storageClassOf(pv, ctx.names)}\n`);
  w.write(0, `Status:\t${phaseOrTerminating(pv)}\n`);
  w.write(0, `Claim:\t${spec.claimRef ? `${spec.claimRef.namespace ?? ''}/${spec.claimRef.name ?? ''}` : ''}\n`);
  w.write(0, `Reclaim Policy:\t${spec.persistentVolumeReclaimPolicy ?? ''}\n`);
  w.write(0, `Access Modes:\t${accessModesString(spec.accessModes)}\n`);
  if (spec.volumeMode) w.write(0, `VolumeMode:\t${spec.volumeMode}\n`);
  w.write(0, `Capacity:\t${canonicalQuantity(spec.capacity?.storage ?? 0)}\n`);
  writeNodeAffinity(w, spec.nodeAffinity);
  w.write(0, `Message:\t${pv.status?.message ?? ''}\n`);
  w.write(0, 'Source:\n');
  writePersistentVolumeSource(w, spec);
  writeEvents(w, await ctx.events());
};
