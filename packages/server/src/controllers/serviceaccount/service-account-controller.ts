/**
 * The serviceaccount controller (pkg/controller/serviceaccount ServiceAccountsController): every active namespace
 * has a `default` service account. A namespace is synced when it appears or changes and when one of its service
 * accounts is deleted, so a deleted `default` comes back. Namespaces being terminated are left alone, and a create
 * refused because the namespace is going is not an error.
 */
import type { KubeObject } from '@svc-apiserver/api';
import type { Informer } from '../../registry/informer.js';
import { createObject } from '../../registry/operations/create-object.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { defaultServiceAccountName } from '../../admission/plugins/service-account.js';
import { loopbackContext } from '../../registry/operations/loopback.js';
import { ignorableCreateFailure } from '../create-failures.js';
import { done, retry, runController, type Controller, type ControllerContext, type SyncResult } from '../kit/controller.js';
import { createWorkQueue } from '../kit/work-queue.js';

/** The accounts every namespace gets (kube's `ServiceAccounts` option: only `default`). */
const accountsToEnsure = [defaultServiceAccountName];

/** The sync of one namespace, over informers of namespaces and service accounts. */
export function serviceAccountSync(registry: Registry, saDef: ResourceDef, namespaces: Informer, accounts: Informer): (namespace: string) => Promise<SyncResult> {
  return async (namespace) => {
    const ns = namespaces.get('', namespace);
    if (ns === undefined) return done;
    if ((ns.status as { phase?: unknown } | undefined)?.phase !== 'Active') return done;
    const failures: string[] = [];
    for (const name of accountsToEnsure) {
      if (accounts.get(namespace, name) !== undefined) continue;
      const account: KubeObject = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } };
      const created = await createObject(registry, saDef, account, loopbackContext(registry.names, 'controller-manager'));
      if (!created.ok && !ignorableCreateFailure(created.error)) failures.push(`creating service account ${namespace}/${name}: ${created.error.message ?? 'failed'}`);
    }
    return failures.length === 0 ? done : retry(failures.join('; '));
  };
}

/** Starts the controller. */
export function startServiceAccountController(context: ControllerContext): Controller {
  const { registry } = context;
  const nsDef = registry.lookup('', 'v1', 'namespaces');
  const saDef = registry.lookup('', 'v1', 'serviceaccounts');
  return runController('serviceaccount', context, (informers) => {
    if (nsDef === undefined || saDef === undefined) return { loops: [] };
    const namespaces = informers.informerFor(nsDef);
    const accounts = informers.informerFor(saDef);
    const queue = createWorkQueue();
    return {
      handlers: [
        { informer: namespaces, listener: (change, ns) => { if (change !== 'DELETED') queue.add(ns.metadata?.name ?? ''); } },
        { informer: accounts, listener: (change, sa) => { if (change === 'DELETED') queue.add(sa.metadata?.namespace ?? ''); } },
      ],
      loops: [{ queue, sync: serviceAccountSync(registry, saDef, namespaces, accounts) }],
    };
  });
}
