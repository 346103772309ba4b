/**
 * The namespace controller (pkg/controller/namespace): for every namespace being deleted, deletes every object of
 * every served namespaced resource in it (through the same two-phase delete a client gets, so finalizers are
 * honoured), and once none remain removes the namespace finalizer through `/finalize` and deletes the namespace,
 * which is then removed. A namespace whose content is still going is looked at again after a pause, as kube's
 * ResourcesRemainingError requeues it; a failed read or write backs off (kube's 5 ms to 60 s).
 */
import type { KubeObject } from '@svc-apiserver/api';
import { deleteObject } from '../registry/operations/delete-object.js';
import { updateObject } from '../registry/operations/update-object.js';
import type { Registry } from '../registry/registry.js';
import { selectEverything } from '../registry/selection.js';
import { loopbackContext } from '../registry/operations/loopback.js';
import { done, retry, retryAfter, runController, type Controller, type ControllerContext, type SyncResult } from './kit/controller.js';
import { controllerRateLimiter } from './kit/rate-limiter.js';
import { createWorkQueue } from './kit/work-queue.js';

/** `--concurrent-namespace-syncs`' default. */
const workers = 10;
/** The health check's name, as this server has always served it. */
const healthCheckName = 'namespace-controller';


/** What deleting a namespace's content came to: objects still there (being finalized) and failed calls. */
interface ContentLeft {
  remaining: number;
  failures: string[];
}

/** Deletes every object in `namespace`; counts what is not gone yet. */
async function removeContent(registry: Registry, namespace: string): Promise<ContentLeft> {
  const left: ContentLeft = { remaining: 0, failures: [] };
  for (const def of registry.all()) {
    if (!def.namespaced) continue;
    const listed = await registry.store.list(def, { namespace, selection: selectEverything });
    if (!listed.ok) {
      left.failures.push(`listing ${def.resource}: ${listed.error.message ?? 'failed'}`);
      continue;
    }
    for (const item of listed.value.items) {
      const name = item.metadata?.name ?? '';
      const result = await deleteObject(registry, def, namespace, name, loopbackContext(registry.names, 'controller-manager'));
      if (!result.ok && result.error.code !== 404) left.failures.push(`deleting ${def.resource} ${name}: ${result.error.message ?? 'failed'}`);
      else if (result.ok && !result.value.removed) left.remaining++;
    }
  }
  return left;
}

/** Starts the controller. */
export function startNamespaceController(context: ControllerContext): Controller {
  const { registry, names } = context;
  const retryMs = context.retryMs ?? 1000;
  const finalizer = names.name('namespaceFinalizer');
  const nsDef = registry.lookup('', 'v1', 'namespaces');

  const sync = async (name: string): Promise<SyncResult> => {
    if (nsDef === undefined) return done;
    const got = await registry.store.get(nsDef, '', name);
    if (!got.ok) return got.error.code === 404 ? done : retry(`reading namespace: ${got.error.message ?? 'failed'}`);
    const ns = got.value;
    if (ns.metadata?.deletionTimestamp === undefined) return done;
    const left = await removeContent(registry, name);
    if (left.failures.length > 0) return retry(left.failures.join('; '));
    if (left.remaining > 0) return retryAfter(retryMs);
    const spec = (ns.spec ?? {}) as { finalizers?: string[] };
    if ((spec.finalizers ?? []).includes(finalizer)) {
      const next: KubeObject = structuredClone(ns);
      (next.spec as { finalizers?: string[] }).finalizers = (spec.finalizers ?? []).filter((f) => f !== finalizer);
      const finalized = await updateObject(registry, nsDef, 'finalize', next, ns, loopbackContext(registry.names, 'controller-manager'));
      if (!finalized.ok) return retry(`finalizing: ${finalized.error.message ?? 'failed'}`);
      // Other finalizers are left to their owners; the namespace goes once they are done.
      if (((finalized.value.spec ?? {}) as { finalizers?: string[] }).finalizers?.length) return done;
    } else if ((spec.finalizers ?? []).length > 0) {
      return done;
    }
    const deleted = await deleteObject(registry, nsDef, '', name, loopbackContext(registry.names, 'controller-manager'), ns.metadata?.uid ? { uid: ns.metadata.uid } : undefined);
    if (!deleted.ok && deleted.error.code !== 404) return retry(`deleting: ${deleted.error.message ?? 'failed'}`);
    return done;
  };

  return runController('namespace', context, (informers) => {
    if (nsDef === undefined) return { loops: [], healthCheckName };
    const queue = createWorkQueue({ rateLimiter: controllerRateLimiter({ baseMs: 5, maxMs: 60_000 }) });
    return {
      healthCheckName,
      handlers: [{
        informer: informers.metadataInformerFor(nsDef),
        listener(change, ns) {
          if (change !== 'DELETED' && ns.metadata?.deletionTimestamp !== undefined) queue.add(ns.metadata.name ?? '');
        },
      }],
      loops: [{ queue, sync, workers }],
    };
  });
}
