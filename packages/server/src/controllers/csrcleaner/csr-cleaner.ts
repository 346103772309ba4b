/**
 * The csrcleaner controller (pkg/controller/certificates/cleaner), with the spec's periods: a request is deleted
 * 1 hour after it was approved, denied or failed (the condition's `lastUpdateTime`), 24 hours after its creation
 * while still pending (no condition at all), and once its issued certificate has expired — whichever comes first.
 * Instead of kube's hourly pass over every request, each request is looked at again when its time comes (on the
 * controller's clock, which tests step).
 */
import type { KubeObject } from '@svc-apiserver/api';
import { firstCertificateNotAfter } from '../../pki/certificate-pem.js';
import type { Informer } from '../../registry/informer.js';
import { deleteObject } from '../../registry/operations/delete-object.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { csrConditions, csrConditionTypes, issuedCertificate, type CsrObject } from '../../pki/csr-object.js';
import { loopbackContext } from '../../registry/operations/loopback.js';
import { realClock, type Clock } from '../kit/clock.js';
import { done, retry, runController, type Controller, type ControllerContext, type SyncResult } from '../kit/controller.js';
import { createWorkQueue, type WorkQueue } from '../kit/work-queue.js';

/** How long a decided (approved, denied, failed) request is kept. */
export const decidedRetentionMs = 60 * 60_000;
/** How long a pending request is kept. */
export const pendingRetentionMs = 24 * 60 * 60_000;


const timeOf = (value: unknown): number | undefined => {
  if (typeof value !== 'string') return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : at;
};

/** When `csr` is to be deleted (ms since the epoch), or undefined when no rule applies. */
export function csrDeletionTime(csr: CsrObject): number | undefined {
  const times: number[] = [];
  const conditions = csrConditions(csr);
  const decided: ReadonlySet<unknown> = new Set([csrConditionTypes.approved, csrConditionTypes.denied, csrConditionTypes.failed]);
  for (const c of conditions) {
    const at = timeOf(c.lastUpdateTime);
    if (decided.has(c.type) && at !== undefined) times.push(at + decidedRetentionMs);
  }
  if (conditions.length === 0) {
    const created = timeOf(csr.metadata?.creationTimestamp);
    if (created !== undefined) times.push(created + pendingRetentionMs);
  }
  const certificate = issuedCertificate(csr);
  if (certificate.length > 0) {
    const notAfter = firstCertificateNotAfter(certificate);
    if (notAfter !== undefined) times.push(notAfter);
  }
  return times.length === 0 ? undefined : Math.min(...times);
}

/** The sync of one request: delete it when its time has passed, else wake up then. */
export function csrCleanerSync(registry: Registry, def: ResourceDef, requests: Informer, queue: WorkQueue, clock: Clock): (name: string) => Promise<SyncResult> {
  const wakeups = new Map<string, { at: number; cancel: () => void }>();
  return async (name) => {
    const csr = requests.get('', name) as CsrObject | undefined;
    const at = csr === undefined ? undefined : csrDeletionTime(csr);
    const scheduled = wakeups.get(name);
    if (scheduled !== undefined && scheduled.at !== at) {
      scheduled.cancel();
      wakeups.delete(name);
    }
    if (csr === undefined || at === undefined) return done;
    if (clock.now() <= at) {
      if (!wakeups.has(name)) {
        wakeups.set(name, {
          at,
          cancel: clock.at(at + 1, () => {
            wakeups.delete(name);
            queue.add(name);
          }),
        });
      }
      return done;
    }
    const uid = (csr as KubeObject).metadata?.uid;
    const deleted = await deleteObject(registry, def, '', name, loopbackContext(registry.names, 'controller-manager'), uid === undefined ? undefined : { uid });
    if (!deleted.ok && deleted.error.code !== 404 && deleted.error.code !== 409) return retry(`deleting ${name}: ${deleted.error.message ?? 'failed'}`);
    return done;
  };
}

/** Starts the controller. */
export function startCsrCleaner(context: ControllerContext): Controller {
  const { registry, names } = context;
  const clock = context.config?.clock ?? realClock;
  const def = registry.lookup(names.group('certificates'), 'v1', 'certificatesigningrequests');
  return runController('csrcleaner', context, (informers) => {
    if (def === undefined) return { loops: [] };
    const requests = informers.informerFor(def);
    const queue = createWorkQueue();
    const sync = csrCleanerSync(registry, def, requests, queue, clock);
    return {
      handlers: [{ informer: requests, listener: (_change, csr) => queue.add(csr.metadata?.name ?? '') }],
      loops: [{ queue, sync }],
    };
  });
}
