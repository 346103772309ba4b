/**
 * The pvc-protection and pv-protection controllers (pkg/controller/volume/pvcprotection, pvprotection): they
 * remove the finalizers StorageObjectInUseProtection puts on claims and volumes once an object being deleted is no
 * longer in use — a claim when no pod of its namespace that has not ended mounts it, a volume when it is not bound —
 * so that its deletion completes.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { asObject, objectsOf, specOf, stringOf } from '../admission/object-access.js';
import { protectionFinalizers } from '../admission/plugins/storage-object-in-use-protection.js';
import type { ResourceDef } from '../registry/resource-def.js';
import { updateObject } from '../registry/operations/update-object.js';
import type { Registry } from '../registry/registry.js';
import { loopbackContext } from '../registry/operations/loopback.js';
import { done, retry, runController, type Controller, type ControllerContext, type SyncResult } from './kit/controller.js';
import { createWorkQueue } from './kit/work-queue.js';

/** Removes `finalizer` from the stored object (a sync's last step). */
async function removeFinalizer(registry: Registry, def: ResourceDef, object: KubeObject, finalizer: string): Promise<SyncResult> {
  const next = structuredClone(object);
  next.metadata = { ...next.metadata, finalizers: (next.metadata?.finalizers ?? []).filter((f) => f !== finalizer) };
  const written = await updateObject(registry, def, '', next, object, loopbackContext(registry.names, 'controller-manager'));
  if (!written.ok && written.error.code !== 404) return retry(`removing ${finalizer}: ${written.error.message ?? 'failed'}`);
  return done;
}

const beingDeletedWith = (object: KubeObject, finalizer: string): boolean =>
  object.metadata?.deletionTimestamp !== undefined && (object.metadata.finalizers ?? []).includes(finalizer);

/** The claims a pod mounts, unless it has ended. */
function claimsOf(pod: KubeObject): string[] {
  const phase = stringOf(asObject(pod['status'])?.['phase']);
  if (phase === 'Succeeded' || phase === 'Failed') return [];
  return objectsOf(specOf(pod)['volumes']).map((v) => stringOf(asObject(v['persistentVolumeClaim'])?.['claimName'])).filter((n) => n !== '');
}

/** Starts pvc-protection. */
export function startPvcProtectionController(context: ControllerContext): Controller {
  const { registry } = context;
  const finalizer = protectionFinalizers(context.names).persistentvolumeclaims;
  const claimsDef = registry.lookup('', 'v1', 'persistentvolumeclaims');
  const podsDef = registry.lookup('', 'v1', 'pods');
  return runController('pvc-protection', context, (informers) => {
    if (claimsDef === undefined || podsDef === undefined) return { loops: [] };
    const claims = informers.informerFor(claimsDef);
    const pods = informers.informerFor(podsDef);
    const queue = createWorkQueue();
    const sync = async (key: string): Promise<SyncResult> => {
      const [namespace, name] = key.split('/') as [string, string];
      const claim = claims.get(namespace, name);
      if (claim === undefined || !beingDeletedWith(claim, finalizer)) return done;
      if (pods.listIn(namespace).some((p) => claimsOf(p).includes(name))) return done;
      return removeFinalizer(registry, claimsDef, claim, finalizer);
    };
    return {
      handlers: [
        {
          informer: claims,
          listener(change, claim) {
            if (change !== 'DELETED' && beingDeletedWith(claim, finalizer)) queue.add(`${claim.metadata?.namespace}/${claim.metadata?.name}`);
          },
        },
        {
          informer: pods,
          listener(change, pod, old) {
            // A pod that goes or ends may free the claims it mounted.
            const before = old === undefined ? [] : claimsOf(old);
            const now = change === 'DELETED' ? [] : claimsOf(pod);
            for (const claim of before.filter((c) => !now.includes(c))) queue.add(`${pod.metadata?.namespace}/${claim}`);
          },
        },
      ],
      loops: [{ queue, sync }],
    };
  });
}

/** Starts pv-protection. */
export function startPvProtectionController(context: ControllerContext): Controller {
  const { registry } = context;
  const finalizer = protectionFinalizers(context.names).persistentvolumes;
  const def = registry.lookup('', 'v1', 'persistentvolumes');
  return runController('pv-protection', context, (informers) => {
    if (def === undefined) return { loops: [] };
    const volumes = informers.informerFor(def);
    const queue = createWorkQueue();
    const sync = async (name: string): Promise<SyncResult> => {
      const volume = volumes.get('', name);
      if (volume === undefined || !beingDeletedWith(volume, finalizer)) return done;
      if (stringOf(asObject(volume['status'])?.['phase']) === 'Bound') return done;
      return removeFinalizer(registry, def, volume, finalizer);
    };
    return {
      handlers: [{
        informer: volumes,
        listener(change, volume) {
          if (change !== 'DELETED' && beingDeletedWith(volume, finalizer)) queue.add(volume.metadata?.name ?? '');
        },
      }],
      loops: [{ queue, sync }],
    };
  });
}
