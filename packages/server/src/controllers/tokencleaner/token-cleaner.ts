/**
 * The tokencleaner controller (pkg/controller/bootstrap TokenCleaner, off by default): bootstrap token Secrets are
 * deleted once their `expiration` has passed (an expiration that does not parse counts as passed); one not yet
 * expired is looked at again when it expires, on the controller's clock.
 */
import type { Names } from '@svc-apiserver/api';
import type { Informer } from '../../registry/informer.js';
import { deleteObject } from '../../registry/operations/delete-object.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { bootstrapTokenExpiration, isBootstrapTokenSecret } from '../bootstrap-token-secret.js';
import { loopbackContext } from '../../registry/operations/loopback.js';
import { realClock, type Clock } from '../kit/clock.js';
import { done, retry, runController, type Controller, type ControllerContext, type SyncResult } from '../kit/controller.js';
import { createWorkQueue, type WorkQueue } from '../kit/work-queue.js';


/** The sync of one Secret (key: its name in the system namespace). */
export function tokenCleanerSync(registry: Registry, names: Names, secretDef: ResourceDef, secrets: Informer, queue: WorkQueue, clock: Clock): (name: string) => Promise<SyncResult> {
  const namespace = names.name('systemNamespace');
  const wakeups = new Map<string, { at: number; cancel: () => void }>();
  return async (name) => {
    const secret = secrets.get(namespace, name);
    const expiration = secret === undefined || !isBootstrapTokenSecret(secret, names) ? undefined : bootstrapTokenExpiration(secret);
    const scheduled = wakeups.get(name);
    if (scheduled !== undefined && scheduled.at !== expiration) {
      scheduled.cancel();
      wakeups.delete(name);
    }
    if (secret === undefined || expiration === undefined) return done;
    if (expiration !== 'invalid' && expiration > clock.now()) {
      if (!wakeups.has(name)) {
        wakeups.set(name, { at: expiration, cancel: clock.at(expiration, () => { wakeups.delete(name); queue.add(name); }) });
      }
      return done;
    }
    const uid = secret.metadata?.uid;
    const deleted = await deleteObject(registry, secretDef, namespace, name, loopbackContext(registry.names, 'controller-manager'), uid === undefined ? undefined : { uid });
    if (!deleted.ok && deleted.error.code !== 404 && deleted.error.code !== 409) return retry(`deleting ${namespace}/${name}: ${deleted.error.message ?? 'failed'}`);
    return done;
  };
}

/** Starts the controller. */
export function startTokenCleaner(context: ControllerContext): Controller {
  const { registry, names } = context;
  const clock = context.config?.clock ?? realClock;
  const secretDef = registry.lookup('', 'v1', 'secrets');
  return runController('tokencleaner', context, (informers) => {
    if (secretDef === undefined) return { loops: [] };
    const secrets = informers.informerFor(secretDef);
    const queue = createWorkQueue();
    return {
      handlers: [{ informer: secrets, listener: (change, s) => { if (change !== 'DELETED' && isBootstrapTokenSecret(s, names)) queue.add(s.metadata?.name ?? ''); } }],
      loops: [{ queue, sync: tokenCleanerSync(registry, names, secretDef, secrets, queue, clock) }],
    };
  });
}
