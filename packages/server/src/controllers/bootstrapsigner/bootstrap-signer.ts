/**
 * The bootstrapsigner controller (pkg/controller/bootstrap Signer, off by default): the `cluster-info` ConfigMap of
 * the public namespace carries, for every bootstrap token that may sign (see bootstrap-token-secret.ts), a key
 * `jws-kubeconfig-<token-id>` with the detached signature of its `kubeconfig`; signatures of tokens that are gone,
 * expired or no longer marked for signing are removed. The ConfigMap is written only when its signatures change,
 * and looked at again when a token expires.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import type { Informer } from '../../registry/informer.js';
import { updateObject } from '../../registry/operations/update-object.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { bootstrapTokenExpiration, isBootstrapTokenSecret, signingToken } from '../bootstrap-token-secret.js';
import { loopbackContext } from '../../registry/operations/loopback.js';
import { realClock, type Clock } from '../kit/clock.js';
import { done, retry, runController, type Controller, type ControllerContext, type SyncResult } from '../kit/controller.js';
import { createWorkQueue, type WorkQueue } from '../kit/work-queue.js';
import { detachedSignature } from './detached-jws.js';

/** The ConfigMap signed (not renamed: kubeadm's name in both flavours). */
export const clusterInfoName = 'cluster-info';
/** Prefix of the signature keys. */
export const signatureKeyPrefix = 'jws-kubeconfig-';


/** The sync of `cluster-info`, over informers of ConfigMaps and Secrets. */
export function bootstrapSignerSync(
  registry: Registry, names: Names, cmDef: ResourceDef, configMaps: Informer, secrets: Informer, queue: WorkQueue, clock: Clock,
): () => Promise<SyncResult> {
  const publicNamespace = names.name('publicNamespace');
  const systemNamespace = names.name('systemNamespace');
  let wakeup: { at: number; cancel: () => void } | undefined;
  return async () => {
    const now = clock.now();
    // The next expiry of a token still valid changes the signatures: look again then.
    const expiries = secrets.listIn(systemNamespace)
      .filter((s) => isBootstrapTokenSecret(s, names) && signingToken(s, now) !== undefined)
      .map((s) => bootstrapTokenExpiration(s))
      .filter((at): at is number => typeof at === 'number');
    const next = expiries.length === 0 ? undefined : Math.min(...expiries);
    if (wakeup !== undefined && wakeup.at !== next) {
      wakeup.cancel();
      wakeup = undefined;
    }
    if (next !== undefined && wakeup === undefined) wakeup = { at: next, cancel: clock.at(next, () => queue.add('')) };

    const cm = configMaps.get(publicNamespace, clusterInfoName) as (KubeObject & { data?: Record<string, string> }) | undefined;
    const content = cm?.data?.['kubeconfig'];
    if (cm === undefined || content === undefined) return done;
    const data: Record<string, string> = {};
    for (const [k, v] of Object.entries(cm.data ?? {})) if (!k.startsWith(signatureKeyPrefix)) data[k] = v;
    for (const s of secrets.listIn(systemNamespace)) {
      if (!isBootstrapTokenSecret(s, names)) continue;
      const token = signingToken(s, now);
      if (token !== undefined) data[`${signatureKeyPrefix}${token.id}`] = await detachedSignature(content, token.id, token.secret);
    }
    const sorted = (o: Record<string, string>) => JSON.stringify(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
    if (sorted(data) === sorted(cm.data ?? {})) return done;
    const updated = await updateObject(registry, cmDef, '', { ...structuredClone(cm), data } as KubeObject, cm, loopbackContext(registry.names, 'controller-manager'));
    if (!updated.ok && updated.error.code !== 404 && !updated.conflict) return retry(`signing ${clusterInfoName}: ${updated.error.message ?? 'failed'}`);
    return done;
  };
}

/** Starts the controller. */
export function startBootstrapSigner(context: ControllerContext): Controller {
  const { registry, names } = context;
  const clock = context.config?.clock ?? realClock;
  const cmDef = registry.lookup('', 'v1', 'configmaps');
  const secretDef = registry.lookup('', 'v1', 'secrets');
  const publicNamespace = names.name('publicNamespace');
  return runController('bootstrapsigner', context, (informers) => {
    if (cmDef === undefined || secretDef === undefined) return { loops: [] };
    // Only cluster-info is read: other ConfigMaps are neither held nor decoded.
    const configMaps = informers.informerFor(cmDef, `metadata.namespace=${publicNamespace},metadata.name=${clusterInfoName}`);
    const secrets = informers.informerFor(secretDef);
    // One key: everything this controller does is the signatures of the one ConfigMap.
    const queue = createWorkQueue();
    const sync = bootstrapSignerSync(registry, names, cmDef, configMaps, secrets, queue, clock);
    return {
      handlers: [
        {
          informer: configMaps,
          listener: (change, cm) => { if (change !== 'DELETED' && cm.metadata?.namespace === publicNamespace && cm.metadata.name === clusterInfoName) queue.add(''); },
        },
        { informer: secrets, listener: (_change, s) => { if (isBootstrapTokenSecret(s, names)) queue.add(''); } },
      ],
      loops: [{ queue, sync }],
    };
  });
}
