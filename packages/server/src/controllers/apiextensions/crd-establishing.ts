/**
 * The CRD establishing controller (apiextensions-apiserver's EstablishingController): once a CRD's names are
 * accepted it becomes Established (InitialNamesAccepted), at once — every replica serves a CRD whose names are
 * accepted, so there is no window to wait out.
 */
import { isConditionTrue, withCondition, type CustomResourceDefinition } from '../../apiextensions/crd.js';
import { nowTimestamp } from '../../registry/operations/prepare.js';
import { done, retry, runController, type Controller, type ControllerContext, type SyncResult } from '../kit/controller.js';
import { createWorkQueue } from '../kit/work-queue.js';
import { crdResource, updateCrdStatus } from './crd-status.js';

/** Starts the establishing controller. */
export function startCrdEstablishing(context: ControllerContext): Controller {
  const def = crdResource(context.registry);
  return runController('crd-establishing', context, (informers) => {
    if (def === undefined) return { loops: [] };
    const informer = informers.informerFor(def);
    const queue = createWorkQueue();
    const sync = async (name: string): Promise<SyncResult> => {
      const crd = informer.get('', name) as CustomResourceDefinition | undefined;
      if (crd === undefined || !isConditionTrue(crd, 'NamesAccepted') || isConditionTrue(crd, 'Established')) return done;
      const next = structuredClone(crd);
      next.status = {
        ...(next.status ?? {}),
        conditions: withCondition(next.status?.conditions, {
          type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted',
        }, nowTimestamp()),
      };
      const result = await updateCrdStatus(context.registry, def, next, crd);
      if (!result.ok && result.error.code !== 404) return retry(`establishing ${name}: ${result.error.message ?? 'failed'}`);
      return done;
    };
    return {
      handlers: [{
        informer,
        listener(change, object) {
          const crd = object as CustomResourceDefinition;
          if (change !== 'DELETED' && isConditionTrue(crd, 'NamesAccepted') && !isConditionTrue(crd, 'Established')) queue.add(crd.metadata?.name ?? '');
        },
      }],
      loops: [{ queue, sync }],
    };
  });
}
