/**
 * The CRD finalizer (apiextensions-apiserver's CRDFinalizer): a CRD being deleted with the `customresourcecleanup`
 * finalizer goes Terminating (InstanceDeletionInProgress), every custom object of it is deleted through the same
 * two-phase delete clients get (so their own finalizers hold them), and once none is left the condition says
 * InstanceDeletionCompleted and the finalizer goes — with it the CRD, and its resources leave the registry and
 * discovery. A CRD never established has nothing to delete (NeverEstablished). Objects still going are looked at
 * again after a pause.
 */
import {
  conditionOf, isConditionTrue, specOf, withCondition, type CrdCondition, type CustomResourceDefinition,
} from '../../apiextensions/crd.js';
import { deleteObject } from '../../registry/operations/delete-object.js';
import { nowTimestamp } from '../../registry/operations/prepare.js';
import { crdCleanupFinalizer } from '../../registry/resources/customresourcedefinitions.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { selectEverything } from '../../registry/selection.js';
import { loopbackContext } from '../../registry/operations/loopback.js';
import { done, retry, retryAfter, runController, type Controller, type ControllerContext, type SyncResult } from '../kit/controller.js';
import { createWorkQueue } from '../kit/work-queue.js';
import { crdResource, updateCrdStatus } from './crd-status.js';

/** Starts the finalizer. */
export function startCrdFinalizer(context: ControllerContext): Controller {
  const { registry } = context;
  const def = crdResource(registry);
  const finalizer = crdCleanupFinalizer(context.names);
  const retryMs = context.retryMs ?? 1000;
  const op = loopbackContext(registry.names, 'apiserver');

  /** Deletes every custom object; the condition to report and whether some are still there. */
  const deleteInstances = async (resource: ResourceDef): Promise<{ condition: CrdCondition; remaining: boolean; error?: string }> => {
    const listed = await registry.store.list(resource, { namespace: '', selection: selectEverything });
    if (!listed.ok) {
      const message = `could not confirm zero CustomResources remaining: ${listed.error.message ?? 'list failed'}`;
      return { condition: { type: 'Terminating', status: 'True', reason: 'InstanceDeletionCheck', message }, remaining: true, error: message };
    }
    const failures: string[] = [];
    let remaining = 0;
    for (const item of listed.value.items) {
      const result = await deleteObject(registry, resource, item.metadata?.namespace ?? '', item.metadata?.name ?? '', op);
      if (!result.ok && result.error.code !== 404) failures.push(result.error.message ?? 'delete failed');
      else if (result.ok && !result.value.removed) remaining++;
    }
    if (failures.length > 0) {
      const message = `could not issue all deletes: ${failures.length === 1 ? failures[0] : `[${failures.join(', ')}]`}`;
      return { condition: { type: 'Terminating', status: 'True', reason: 'InstanceDeletionFailed', message }, remaining: true, error: message };
    }
    if (remaining > 0) {
      return { condition: { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' }, remaining: true };
    }
    return { condition: { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' }, remaining: false };
  };

  return runController('crd-finalizer', context, (informers) => {
    if (def === undefined) return { loops: [] };
    const informer = informers.informerFor(def);
    const queue = createWorkQueue();

    const writeStatus = async (crd: CustomResourceDefinition, condition: CrdCondition, dropFinalizer: boolean) => {
      const next = structuredClone(crd);
      next.status = { ...(next.status ?? {}), conditions: withCondition(next.status?.conditions, condition, nowTimestamp()) };
      if (dropFinalizer) next.metadata = { ...(next.metadata ?? {}), finalizers: (next.metadata?.finalizers ?? []).filter((f) => f !== finalizer) };
      return updateCrdStatus(registry, def, next, crd);
    };

    const sync = async (name: string): Promise<SyncResult> => {
      let crd = informer.get('', name) as CustomResourceDefinition | undefined;
      if (crd === undefined || crd.metadata?.deletionTimestamp === undefined || !(crd.metadata.finalizers ?? []).includes(finalizer)) return done;
      const progress: CrdCondition = { type: 'Terminating', status: 'True', reason: 'InstanceDeletionInProgress', message: 'CustomResource deletion is in progress' };
      const current = conditionOf(crd, 'Terminating');
      if (current?.reason !== progress.reason) {
        const marked = await writeStatus(crd, progress, false);
        if (!marked.ok) return marked.error.code === 404 ? done : retry(`marking ${name} terminating: ${marked.error.message ?? 'failed'}`);
        crd = marked.value as CustomResourceDefinition;
      }
      let condition: CrdCondition = { type: 'Terminating', status: 'False', reason: 'NeverEstablished', message: 'resource was never established' };
      if (isConditionTrue(crd, 'Established')) {
        const spec = specOf(crd);
        const resource = registry.all().find((d) => d.custom !== undefined && d.group === spec.group && d.resource === spec.names?.plural);
        if (resource !== undefined) {
          const deleted = await deleteInstances(resource);
          if (deleted.error !== undefined) {
            await writeStatus(crd, deleted.condition, false);
            return retry(deleted.error);
          }
          if (deleted.remaining) return retryAfter(retryMs);
          condition = deleted.condition;
        } else {
          condition = { type: 'Terminating', status: 'False', reason: 'InstanceDeletionCompleted', message: 'removed all instances' };
        }
      }
      const finished = await writeStatus(crd, condition, true);
      if (!finished.ok && finished.error.code !== 404) return retry(`finalizing ${name}: ${finished.error.message ?? 'failed'}`);
      return done;
    };
    return {
      handlers: [{
        informer,
        listener(change, object) {
          if (change !== 'DELETED' && object.metadata?.deletionTimestamp !== undefined) queue.add(object.metadata.name ?? '');
        },
      }],
      loops: [{ queue, sync, workers: 5 }],
    };
  });
}
