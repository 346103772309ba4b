/**
 * APIService registration of the server's own group-versions (kube-apiserver's autoregister controller with its
 * `kube-apiserver-autoregistration` hook, and kube-aggregator's crd-autoregister): every served built-in
 * group-version has a Local APIService `<version>.<group>` with kube's priorities, created at start and put back
 * when deleted or changed (label `kube-aggregator.svc.io/automanaged: onstart`); every served custom resource
 * group-version has one too (`automanaged: true`), removed when its CRDs are gone.
 */
import type { KubeObject } from '@svc-apiserver/api';
import { apiServiceName, apiServiceSpec, type ApiService } from './apiservice.js';
import { builtinPriority, customResourcePriority } from './priorities.js';
import { createObject } from '../registry/operations/create-object.js';
import { deleteObject } from '../registry/operations/delete-object.js';
import { updateObject } from '../registry/operations/update-object.js';
import { loopbackContext } from '../registry/operations/loopback.js';
import { done, retry, runController, type Controller, type ControllerContext, type SyncResult } from '../controllers/kit/controller.js';
import { createWorkQueue } from '../controllers/kit/work-queue.js';
import { apiServiceResource } from './apiservice-conditions.js';

interface Wanted {
  readonly group: string;
  readonly version: string;
  readonly managed: 'onstart' | 'true';
  readonly priority: { group: number; version: number };
}

/** Starts the registration. */
export function startApiServiceAutoregistration(context: ControllerContext): Controller {
  const { registry, names } = context;
  const def = apiServiceResource(registry);
  const label = names.fromUpstream('kube-aggregator.kubernetes.io/automanaged');
  const op = loopbackContext(registry.names, 'apiserver');
  const wanted = (): Map<string, Wanted> => {
    const out = new Map<string, Wanted>();
    for (const d of registry.all()) {
      const name = apiServiceName(d.group, d.version);
      if (out.has(name)) continue;
      out.set(name, d.custom !== undefined
        ? { group: d.group, version: d.version, managed: 'true', priority: customResourcePriority }
        : { group: d.group, version: d.version, managed: 'onstart', priority: builtinPriority(d.groupKey, d.version) });
    }
    return out;
  };
  return runController('apiservice-autoregistration', context, (informers) => {
    if (def === undefined) return { loops: [] };
    const informer = informers.informerFor(def);
    const queue = createWorkQueue();
    const sync = async (name: string): Promise<SyncResult> => {
      const want = wanted().get(name);
      const current = informer.get('', name) as ApiService | undefined;
      if (want === undefined) {
        // Only what this registration made goes: an APIService someone created is theirs.
        if (current === undefined || current.metadata?.labels?.[label] !== 'true') return done;
        const removed = await deleteObject(registry, def, '', name, op);
        return removed.ok || removed.error.code === 404 ? done : retry(`removing APIService ${name}: ${removed.error.message ?? 'failed'}`);
      }
      const spec = { group: want.group, version: want.version, groupPriorityMinimum: want.priority.group, versionPriority: want.priority.version };
      if (current === undefined) {
        const object: KubeObject = {
          apiVersion: `${names.group('apiregistration')}/v1`, kind: 'APIService',
          metadata: { name, labels: { [label]: want.managed } }, spec,
        };
        const made = await createObject(registry, def, object, op);
        return made.ok || made.error.code === 409 ? done : retry(`creating APIService ${name}: ${made.error.message ?? 'failed'}`);
      }
      // Someone's own APIService for a served group-version is left alone.
      const managed = current.metadata?.labels?.[label];
      if (managed !== 'onstart' && managed !== 'true') return done;
      const have = apiServiceSpec(current);
      if (have.group === spec.group && have.version === spec.version && have.groupPriorityMinimum === spec.groupPriorityMinimum
        && have.versionPriority === spec.versionPriority && (have.service ?? null) === null && managed === want.managed) return done;
      const next = { ...structuredClone(current), spec, metadata: { ...structuredClone(current.metadata ?? {}), labels: { ...(current.metadata?.labels ?? {}), [label]: want.managed } } };
      const updated = await updateObject(registry, def, '', next as KubeObject, current as KubeObject, op);
      return updated.ok || updated.error.code === 404 ? done : retry(`updating APIService ${name}: ${updated.error.message ?? 'failed'}`);
    };
    const enqueueAll = (): void => {
      for (const n of wanted().keys()) queue.add(n);
      for (const o of informer.list()) if (o.metadata?.labels?.[label] === 'true') queue.add(o.metadata.name ?? '');
    };
    const removeListener = registry.onChange(enqueueAll);
    return {
      handlers: [{ informer, listener: (_change, object) => queue.add(object.metadata?.name ?? '') }],
      onSynced: enqueueAll,
      loops: [{ queue, sync }],
      onStop: removeListener,
    };
  });
}
