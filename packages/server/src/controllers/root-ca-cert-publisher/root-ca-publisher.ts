/**
 * The root-ca-cert-publisher controller (pkg/controller/certificates/rootcacertpublisher): every namespace has the
 * root CA ConfigMap (`svc-root-ca.crt`, key `ca.crt`: the CA that verifies this server, with a description
 * annotation), created when missing and put back when its data or annotation is changed or it is deleted. Pods
 * read it through the token volume the ServiceAccount admission plugin mounts.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';
import type { Informer } from '../../registry/informer.js';
import { createObject } from '../../registry/operations/create-object.js';
import { updateObject } from '../../registry/operations/update-object.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { loopbackContext } from '../../registry/operations/loopback.js';
import { ignorableCreateFailure } from '../create-failures.js';
import { done, retry, runController, type Controller, type ControllerContext, type SyncResult } from '../kit/controller.js';
import { required } from '../kit/controller-config.js';
import { createWorkQueue } from '../kit/work-queue.js';

/** What the ConfigMap says of itself (kube's description, without its product names). */
export const rootCaDescription =
  'Contains a CA bundle that can be used to verify the API server when using internal endpoints such as the internal service IP. No other usage is guaranteed across distributions of clusters.';


/** The sync of one namespace, over informers of namespaces and ConfigMaps. */
export function rootCaSync(registry: Registry, names: Names, cmDef: ResourceDef, namespaces: Informer, configMaps: Informer, rootCaPem: string): (namespace: string) => Promise<SyncResult> {
  const name = names.name('rootCaConfigMap');
  const descriptionKey = names.domain('description');
  return async (namespace) => {
    if (namespaces.get('', namespace) === undefined) return done;
    const current = configMaps.get(namespace, name);
    const data = { 'ca.crt': rootCaPem };
    if (current === undefined) {
      const created = await createObject(registry, cmDef, {
        apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, annotations: { [descriptionKey]: rootCaDescription } }, data,
      }, loopbackContext(registry.names, 'controller-manager'));
      if (!created.ok && !ignorableCreateFailure(created.error)) return retry(`creating ${namespace}/${name}: ${created.error.message ?? 'failed'}`);
      return done;
    }
    const currentData = (current as { data?: Record<string, string> }).data ?? {};
    const sameData = Object.keys(currentData).length === 1 && currentData['ca.crt'] === rootCaPem;
    if (sameData && (current.metadata?.annotations?.[descriptionKey] ?? '') !== '') return done;
    const next = structuredClone(current) as KubeObject & { data?: Record<string, string> };
    next.data = data;
    next.metadata = { ...next.metadata, annotations: { ...next.metadata?.annotations, [descriptionKey]: rootCaDescription } };
    // Written over the informer's state: a conflict means a newer state is coming, and the retry reads it.
    const updated = await updateObject(registry, cmDef, '', next, current, loopbackContext(registry.names, 'controller-manager'));
    if (!updated.ok && updated.error.code !== 404) return retry(`updating ${namespace}/${name}: ${updated.error.message ?? 'failed'}`);
    return done;
  };
}

/** Starts the controller. */
export function startRootCaPublisher(context: ControllerContext): Controller {
  const { registry, names } = context;
  const rootCaPem = required(context.config?.rootCaPem, 'root-ca-cert-publisher', 'the root CA');
  const nsDef = registry.lookup('', 'v1', 'namespaces');
  const cmDef = registry.lookup('', 'v1', 'configmaps');
  const name = names.name('rootCaConfigMap');
  return runController('root-ca-cert-publisher', context, (informers) => {
    if (nsDef === undefined || cmDef === undefined) return { loops: [] };
    const namespaces = informers.metadataInformerFor(nsDef);
    // Only the published ConfigMap of each namespace is read: the others are neither held nor decoded.
    const configMaps = informers.informerFor(cmDef, `metadata.name=${name}`);
    const queue = createWorkQueue();
    return {
      handlers: [
        { informer: namespaces, listener: (change, ns) => { if (change !== 'DELETED') queue.add(ns.metadata?.name ?? ''); } },
        {
          informer: configMaps,
          listener: (change, cm) => { if (change !== 'ADDED' && cm.metadata?.name === name) queue.add(cm.metadata.namespace ?? ''); },
        },
      ],
      loops: [{ queue, sync: rootCaSync(registry, names, cmDef, namespaces, configMaps, rootCaPem) }],
    };
  });
}
