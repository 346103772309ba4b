/**
 * The garbage collector (pkg/controller/garbagecollector) over `metadata.ownerReferences`, acting on the registry
 * in-process. Each pass reads every served object into an owner → dependents graph and then, as kube's
 * attemptToDelete / orphan / processDeletingDependents workers do:
 *
 * - an owner being deleted with the `orphan` finalizer: its dependents lose their reference to it, then the
 *   finalizer goes (and with the last finalizer, the owner);
 * - an owner being deleted with the `foregroundDeletion` finalizer: the finalizer goes once no dependent with
 *   `blockOwnerDeletion: true` is left; its dependents are deleted meanwhile (below);
 * - a dependent without a solid owner (every owner is gone — deleted in the background, or a dangling reference to
 *   an object that never existed or has another uid — or waits for its dependents in the foreground) is deleted:
 *   in the foreground when an owner waits and it has dependents itself (chains), else as its own finalizers say
 *   (Background by default); a dependent with a solid owner just loses its dangling and waiting references.
 *
 * Passes run after every change of any served resource (coalesced), and again after a pause while foreground
 * deletions wait. A reference to a kind this server does not serve is left alone.
 */
import { apiVersionOf, type KubeObject, type OwnerReference } from '@svc-apiserver/api';
import type { HealthCheck } from '../health/health-check.js';
import {
  deleteObject, foregroundFinalizer, orphanFinalizer, type PropagationPolicy,
} from '../registry/operations/delete-object.js';
import { updateObject } from '../registry/operations/update-object.js';
import type { Registry } from '../registry/registry.js';
import type { ResourceDef } from '../registry/resource-def.js';
import { selectEverything } from '../registry/selection.js';
import { controllerUser } from './controller-user.js';

/** A running garbage collector. */
export interface GarbageCollector {
  readonly checks: HealthCheck[];
  /** Resolves when no pass runs or is due (tests wait on it). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Options of the collector. */
export interface GarbageCollectorOptions {
  /** Pause before a pass is repeated while work remains (default 1 s). */
  readonly retryMs?: number;
  /** Coalescing delay after a change (default 10 ms). */
  readonly debounceMs?: number;
}

interface GraphNode {
  readonly def: ResourceDef;
  readonly object: KubeObject;
}

const uidOf = (o: KubeObject): string => o.metadata?.uid ?? '';
const beingDeleted = (o: KubeObject): boolean => o.metadata?.deletionTimestamp !== undefined;
const hasFinalizer = (o: KubeObject, f: string): boolean => (o.metadata?.finalizers ?? []).includes(f);

/** Starts the collector. */
export function startGarbageCollector(registry: Registry, options: GarbageCollectorOptions = {}): GarbageCollector {
  const retryMs = options.retryMs ?? 1000;
  const debounceMs = options.debounceMs ?? 10;
  const op = { user: controllerUser, dryRun: false };
  let stopped = false;
  let running = false;
  let due = false;
  let timer: NodeJS.Timeout | undefined;
  let idleWaiters: (() => void)[] = [];
  const cancels: (() => void)[] = [];
  let watching = 0;

  const defOf = (ref: OwnerReference): ResourceDef | undefined =>
    registry.all().find((d) => apiVersionOf(d.group, d.version) === ref.apiVersion && d.kind === ref.kind);

  /** Writes `mutate(current)` over the current object; false when it failed (the pass is repeated). */
  const rewrite = async (node: GraphNode, mutate: (o: KubeObject) => void): Promise<boolean> => {
    const ns = node.object.metadata?.namespace ?? '';
    const got = await registry.store.get(node.def, ns, node.object.metadata?.name ?? '');
    if (!got.ok) return got.status.code === 404;
    if (uidOf(got.value) !== uidOf(node.object)) return true;
    const next = structuredClone(got.value);
    mutate(next);
    const written = await updateObject(registry, node.def, '', next, got.value, op);
    return written.ok || written.status.code === 404;
  };

  const remove = async (node: GraphNode, policy: PropagationPolicy): Promise<boolean> => {
    const meta = node.object.metadata ?? {};
    const result = await deleteObject(registry, node.def, meta.namespace ?? '', meta.name ?? '', op, { uid: uidOf(node.object) }, { propagationPolicy: policy });
    return result.ok || result.status.code === 404 || result.status.code === 409;
  };

  /** One pass over the graph; true when work remains. */
  const pass = async (): Promise<boolean> => {
    const nodes: GraphNode[] = [];
    for (const def of registry.all()) {
      const listed = await registry.store.list(def, { namespace: '', selection: selectEverything });
      if (!listed.ok) continue;
      for (const item of listed.value.items) {
        nodes.push({ def, object: { ...item, apiVersion: apiVersionOf(def.group, def.version), kind: def.kind } });
      }
    }
    const byUid = new Map(nodes.map((n) => [uidOf(n.object), n]));
    const dependents = new Map<string, GraphNode[]>();
    for (const n of nodes) {
      for (const ref of n.object.metadata?.ownerReferences ?? []) {
        dependents.set(ref.uid, [...(dependents.get(ref.uid) ?? []), n]);
      }
    }
    let remaining = false;

    for (const owner of nodes) {
      if (!beingDeleted(owner.object) || !hasFinalizer(owner.object, orphanFinalizer)) continue;
      const uid = uidOf(owner.object);
      let ok = true;
      for (const dep of dependents.get(uid) ?? []) {
        ok = (await rewrite(dep, (o) => {
          const refs = (o.metadata?.ownerReferences ?? []).filter((r) => r.uid !== uid);
          if (refs.length > 0) o.metadata!.ownerReferences = refs;
          else delete o.metadata!.ownerReferences;
        })) && ok;
      }
      if (ok) ok = await rewrite(owner, (o) => { o.metadata!.finalizers = (o.metadata?.finalizers ?? []).filter((f) => f !== orphanFinalizer); });
      if (!ok) remaining = true;
    }

    for (const owner of nodes) {
      if (!beingDeleted(owner.object) || !hasFinalizer(owner.object, foregroundFinalizer)) continue;
      const uid = uidOf(owner.object);
      const blocking = (dependents.get(uid) ?? []).filter((d) =>
        (d.object.metadata?.ownerReferences ?? []).some((r) => r.uid === uid && r.blockOwnerDeletion === true));
      if (blocking.length > 0) {
        remaining = true;
        continue;
      }
      const ok = await rewrite(owner, (o) => { o.metadata!.finalizers = (o.metadata?.finalizers ?? []).filter((f) => f !== foregroundFinalizer); });
      if (!ok) remaining = true;
    }

    for (const dep of nodes) {
      const refs = dep.object.metadata?.ownerReferences ?? [];
      if (refs.length === 0 || beingDeleted(dep.object)) continue;
      const solid: OwnerReference[] = [];
      const gone: OwnerReference[] = [];
      for (const ref of refs) {
        const owner = byUid.get(ref.uid);
        if (owner !== undefined) {
          if (beingDeleted(owner.object) && hasFinalizer(owner.object, foregroundFinalizer)) gone.push(ref);
          else solid.push(ref);
          continue;
        }
        const def = defOf(ref);
        if (def === undefined) {
          solid.push(ref);
          continue;
        }
        // Not in this pass's snapshot: ask storage before calling it dangling (it may be newer than the snapshot).
        const got = await registry.store.get(def, def.namespaced ? dep.object.metadata?.namespace ?? '' : '', ref.name);
        if (got.ok && uidOf(got.value) === ref.uid) solid.push(ref);
        else if (got.ok || got.status.code === 404) gone.push(ref);
        else solid.push(ref);
      }
      if (gone.length === 0) continue;
      let ok: boolean;
      if (solid.length > 0) {
        const drop = new Set(gone.map((r) => r.uid));
        ok = await rewrite(dep, (o) => { o.metadata!.ownerReferences = (o.metadata?.ownerReferences ?? []).filter((r) => !drop.has(r.uid)); });
      } else {
        const waiting = gone.some((r) => byUid.has(r.uid));
        let policy: PropagationPolicy = 'Background';
        if (waiting && (dependents.get(uidOf(dep.object)) ?? []).length > 0) policy = 'Foreground';
        else if (hasFinalizer(dep.object, orphanFinalizer)) policy = 'Orphan';
        else if (hasFinalizer(dep.object, foregroundFinalizer)) policy = 'Foreground';
        ok = await remove(dep, policy);
      }
      if (!ok) remaining = true;
    }
    return remaining;
  };

  const finishIdle = (): void => {
    if (!running && !due && timer === undefined) for (const w of idleWaiters.splice(0)) w();
  };

  const run = async (): Promise<void> => {
    if (running || stopped) return;
    running = true;
    let again = false;
    try {
      while (due && !stopped) {
        due = false;
        try {
          again = await pass();
        } catch {
          again = true;
        }
      }
    } finally {
      running = false;
    }
    if (again && !stopped) schedule(retryMs);
    finishIdle();
  };

  function schedule(delay: number): void {
    if (stopped) return;
    due = true;
    if (running || timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      void run();
    }, delay);
  }

  const watchAll = async (): Promise<void> => {
    for (const def of registry.all()) {
      const watchOne = async (): Promise<void> => {
        if (stopped) return;
        const started = await registry.store.watch(def, { namespace: '', selection: selectEverything }, {
          event: () => schedule(debounceMs),
          error: () => {
            watching--;
            setTimeout(() => void watchOne(), retryMs).unref();
          },
        });
        if (started.ok) {
          watching++;
          cancels.push(() => started.value.cancel());
          schedule(debounceMs);
        } else {
          setTimeout(() => void watchOne(), retryMs).unref();
        }
      };
      await watchOne();
    }
  };
  void watchAll();

  return {
    checks: [{ name: 'garbage-collector', check: async () => (watching >= registry.all().length ? undefined : 'not watching every resource') }],
    idle() {
      if (!running && !due && timer === undefined) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async stop() {
      stopped = true;
      for (const c of cancels.splice(0)) c();
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      due = false;
      for (const w of idleWaiters.splice(0)) w();
      idleWaiters = [];
    },
  };
}
