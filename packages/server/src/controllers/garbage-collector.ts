/**
 * The garbage collector (pkg/controller/garbagecollector) over `metadata.ownerReferences`, acting on the registry
 * in-process. As kube's GraphBuilder does, it keeps a dependency graph current from one watch per stored resource
 * (served from the watch cache): uid → node {identity, owners, being deleted, deleting dependents (foreground),
 * waiting to orphan}, plus an owner uid → dependent uids index. Each event touches only the nodes it changes and
 * puts the affected uids on two queues, worked as kube's workers do:
 *
 * - attempt to delete (a dependent whose owner is gone, being deleted in the foreground, or absent from the graph;
 *   an owner deleting its dependents): each owner reference is checked by a direct read of the owner (a dangling
 *   reference names an object that does not exist or has another uid). With a solid owner left, the dangling and
 *   waiting references are removed; with none, the dependent is deleted — in the foreground when an owner waits
 *   and it has dependents itself (chains), else as its own finalizers say (Background by default). An owner with
 *   the `foregroundDeletion` finalizer loses it once no dependent with `blockOwnerDeletion: true` is left; its
 *   blocking dependents are queued meanwhile.
 * - attempt to orphan (an owner being deleted with the `orphan` finalizer): its dependents lose their reference to
 *   it, then the finalizer goes (and with the last finalizer, the owner).
 *
 * Failed items are retried after a pause. A reference to a kind this server does not serve is left alone.
 */
import { apiVersionOf, type KubeObject, type OwnerReference, type Status, type WatchEvent } from '@svc-apiserver/api';
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
  /** Resolves when no queued, running or retrying work is left (tests wait on it). */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Options of the collector. */
export interface GarbageCollectorOptions {
  /** Pause before a failed item is tried again, and before a failed watch restarts (default 1 s). */
  readonly retryMs?: number;
  /** Accepted for compatibility; events are handled as they come (no pass to coalesce). */
  readonly debounceMs?: number;
}

/** One observed object in the graph (kube's node): only what collection decides on. */
interface GraphNode {
  readonly uid: string;
  readonly def: ResourceDef;
  readonly namespace: string;
  readonly name: string;
  owners: readonly OwnerReference[];
  finalizers: readonly string[];
  beingDeleted: boolean;
}

const deletingDependents = (n: GraphNode): boolean => n.beingDeleted && n.finalizers.includes(foregroundFinalizer);
const waitingToOrphan = (n: GraphNode): boolean => n.beingDeleted && n.finalizers.includes(orphanFinalizer);
const uidOf = (o: KubeObject): string => o.metadata?.uid ?? '';

/** What one queue item's attempt came to: done, or try again after the pause. */
type Attempt = 'done' | 'retry';

/** Starts the collector. */
export function startGarbageCollector(registry: Registry, options: GarbageCollectorOptions = {}): GarbageCollector {
  const retryMs = options.retryMs ?? 1000;
  const op = { user: controllerUser, dryRun: false };
  let stopped = false;
  const nodes = new Map<string, GraphNode>();
  /** Owner uid → uids of the observed objects that reference it (the owner itself may be absent). */
  const dependentsOf = new Map<string, Set<string>>();
  const toDelete = new Set<string>();
  const toOrphan = new Set<string>();
  const retryTimers = new Set<NodeJS.Timeout>();
  let working = false;
  /** Watches not started yet for the first time: the workers and idle wait for the initial graph. */
  let starting = 0;
  let idleWaiters: (() => void)[] = [];
  const cancels = new Map<string, () => void>();

  // Several served versions share one stored resource: watch each stored resource once, through its first def.
  const watched = [...new Map([...registry.all()].reverse().map((d) => [d.keyPrefix, d] as const)).values()];
  const byTypeCache = new Map<string, ResourceDef | undefined>();
  const defOf = (ref: OwnerReference): ResourceDef | undefined => {
    const id = `${ref.apiVersion}\u0000${ref.kind}`;
    if (!byTypeCache.has(id)) {
      byTypeCache.set(id, registry.all().find((d) => apiVersionOf(d.group, d.version) === ref.apiVersion && d.kind === ref.kind));
    }
    return byTypeCache.get(id);
  };

  // ---- the graph, kept current from watch events --------------------------------------------------------------

  const link = (owner: string, dependent: string): void => {
    let set = dependentsOf.get(owner);
    if (set === undefined) dependentsOf.set(owner, (set = new Set()));
    set.add(dependent);
  };
  const unlink = (owner: string, dependent: string): void => {
    const set = dependentsOf.get(owner);
    if (set === undefined) return;
    set.delete(dependent);
    if (set.size === 0) dependentsOf.delete(owner);
  };

  /** An owner waiting for its dependents may be free once one of them goes or drops the reference. */
  const ownerMayBeFree = (ownerUid: string): void => {
    const owner = nodes.get(ownerUid);
    if (owner !== undefined && deletingDependents(owner)) enqueueDelete(ownerUid);
  };

  const observe = (def: ResourceDef, object: KubeObject): void => {
    const meta = object.metadata ?? {};
    const uid = meta.uid ?? '';
    if (uid === '') return;
    const old = nodes.get(uid);
    const node: GraphNode = {
      uid, def, namespace: meta.namespace ?? '', name: meta.name ?? '',
      owners: meta.ownerReferences ?? [], finalizers: meta.finalizers ?? [], beingDeleted: meta.deletionTimestamp !== undefined,
    };
    nodes.set(uid, node);
    const before = new Set((old?.owners ?? []).map((r) => r.uid));
    const now = new Set(node.owners.map((r) => r.uid));
    for (const r of now) if (!before.has(r)) link(r, uid);
    for (const r of before) {
      if (now.has(r)) continue;
      unlink(r, uid);
      ownerMayBeFree(r);
    }
    // A dependent whose owner is absent from the graph (maybe dangling, maybe not observed yet: the read decides)
    // or waits for its dependents is looked at; one whose owners are all present and not waiting is not.
    if (!node.beingDeleted && node.owners.some((r) => {
      const owner = nodes.get(r.uid);
      return owner === undefined ? defOf(r) !== undefined : deletingDependents(owner);
    })) enqueueDelete(uid);
    // A blocking reference may have been cleared, or this dependent may have started being deleted.
    if (old !== undefined) for (const r of node.owners) ownerMayBeFree(r.uid);
    if (waitingToOrphan(node)) enqueueOrphan(uid);
    if (deletingDependents(node)) {
      enqueueDelete(uid);
      // Starts waiting: its dependents are to be deleted (kube's processTransitions). In a background deletion
      // they are looked at once the owner is gone (its DELETED event).
      if (old === undefined || !deletingDependents(old)) for (const d of dependentsOf.get(uid) ?? []) enqueueDelete(d);
    }
  };

  const forget = (uid: string): void => {
    const node = nodes.get(uid);
    if (node === undefined) return;
    nodes.delete(uid);
    toOrphan.delete(uid);
    for (const r of node.owners) {
      unlink(r.uid, uid);
      ownerMayBeFree(r.uid);
    }
    // The references to it are dangling now.
    for (const d of dependentsOf.get(uid) ?? []) enqueueDelete(d);
  };

  // ---- the queues -------------------------------------------------------------------------------------------

  function enqueueDelete(uid: string): void {
    if (stopped) return;
    toDelete.add(uid);
    kick();
  }
  function enqueueOrphan(uid: string): void {
    if (stopped) return;
    toOrphan.add(uid);
    kick();
  }
  const retryLater = (queue: Set<string>, uid: string): void => {
    if (stopped) return;
    const timer = setTimeout(() => {
      retryTimers.delete(timer);
      if (stopped) return;
      queue.add(uid);
      kick();
      settleIdle();
    }, retryMs);
    retryTimers.add(timer);
  };

  const isIdle = (): boolean => starting === 0 && !working && toDelete.size === 0 && toOrphan.size === 0 && retryTimers.size === 0;
  function settleIdle(): void {
    if (isIdle() || stopped) for (const w of idleWaiters.splice(0)) w();
  }

  const take = (queue: Set<string>): string | undefined => {
    const first = queue.values().next();
    if (first.done) return undefined;
    queue.delete(first.value);
    return first.value;
  };

  function kick(): void {
    // As kube's collector waits for its informers to sync: an owner read as existing is then surely observed
    // (in a watch's initial state or a later event), so its deletion will queue its dependents again.
    if (working || stopped || starting > 0) return;
    working = true;
    void (async () => {
      try {
        for (;;) {
          if (stopped) break;
          let uid = take(toOrphan);
          if (uid !== undefined) {
            if ((await guarded(() => attemptToOrphan(uid!))) === 'retry') retryLater(toOrphan, uid);
            continue;
          }
          uid = take(toDelete);
          if (uid === undefined) break;
          if ((await guarded(() => attemptToDelete(uid!))) === 'retry') retryLater(toDelete, uid);
        }
      } finally {
        working = false;
        settleIdle();
      }
    })();
  }

  const guarded = async (fn: () => Promise<Attempt>): Promise<Attempt> => {
    try {
      return await fn();
    } catch {
      return 'retry';
    }
  };

  // ---- the workers ------------------------------------------------------------------------------------------

  /** The object as stored now, if it is still the node's (same uid). */
  const latest = async (node: GraphNode): Promise<{ ok: true; value: KubeObject | undefined } | { ok: false }> => {
    const got = await registry.store.get(node.def, node.namespace, node.name);
    if (!got.ok) return got.status.code === 404 ? { ok: true, value: undefined } : { ok: false };
    return { ok: true, value: uidOf(got.value) === node.uid ? got.value : undefined };
  };

  /** Writes `mutate(current)` over the current object; false when it failed (the item is retried). */
  const rewrite = async (node: GraphNode, mutate: (o: KubeObject) => void): Promise<boolean> => {
    const got = await latest(node);
    if (!got.ok) return false;
    if (got.value === undefined) return true;
    const next = structuredClone(got.value);
    mutate(next);
    const written = await updateObject(registry, node.def, '', next, got.value, op);
    return written.ok || written.status.code === 404;
  };

  const remove = async (node: GraphNode, policy: PropagationPolicy): Promise<boolean> => {
    const result = await deleteObject(registry, node.def, node.namespace, node.name, op, { uid: node.uid }, { propagationPolicy: policy });
    return result.ok || result.status.code === 404 || result.status.code === 409;
  };

  /** How an owner reference stands, by a direct read of the owner (kube's isDangling). */
  const ownerState = async (dep: GraphNode, ref: OwnerReference): Promise<'solid' | 'dangling' | 'waiting' | 'unknown'> => {
    const def = defOf(ref);
    if (def === undefined) return 'solid';
    const got = await registry.store.get(def, def.namespaced ? dep.namespace : '', ref.name);
    if (!got.ok) return got.status.code === 404 ? 'dangling' : 'unknown';
    if (uidOf(got.value) !== ref.uid) return 'dangling';
    const meta = got.value.metadata ?? {};
    return meta.deletionTimestamp !== undefined && (meta.finalizers ?? []).includes(foregroundFinalizer) ? 'waiting' : 'solid';
  };

  /** kube's processDeletingDependentsItem: the foreground finalizer goes once no blocking dependent is left. */
  const processDeletingDependents = async (owner: GraphNode): Promise<Attempt> => {
    const blocking: GraphNode[] = [];
    for (const d of dependentsOf.get(owner.uid) ?? []) {
      const dep = nodes.get(d);
      if (dep !== undefined && dep.owners.some((r) => r.uid === owner.uid && r.blockOwnerDeletion === true)) blocking.push(dep);
    }
    if (blocking.length === 0) {
      const ok = await rewrite(owner, (o) => { o.metadata!.finalizers = (o.metadata?.finalizers ?? []).filter((f) => f !== foregroundFinalizer); });
      return ok ? 'done' : 'retry';
    }
    // The owner is queued again when one of them goes or drops its reference.
    for (const dep of blocking) if (!dep.beingDeleted) enqueueDelete(dep.uid);
    return 'done';
  };

  /** kube's attemptToDeleteItem. */
  const attemptToDelete = async (uid: string): Promise<Attempt> => {
    const node = nodes.get(uid);
    if (node === undefined) return 'done';
    if (deletingDependents(node)) return processDeletingDependents(node);
    if (node.beingDeleted) return 'done';
    // Decide on the stored object, not on the graph's possibly older view of it.
    const got = await latest(node);
    if (!got.ok) return 'retry';
    const current = got.value;
    if (current === undefined || current.metadata?.deletionTimestamp !== undefined) return 'done';
    const refs = current.metadata?.ownerReferences ?? [];
    if (refs.length === 0) return 'done';
    const solid: OwnerReference[] = [];
    const gone: OwnerReference[] = [];
    let waiting = false;
    for (const ref of refs) {
      const state = await ownerState(node, ref);
      if (state === 'unknown') return 'retry';
      if (state === 'solid') solid.push(ref);
      else {
        gone.push(ref);
        if (state === 'waiting') waiting = true;
      }
    }
    if (gone.length === 0) return 'done';
    let ok: boolean;
    if (solid.length > 0) {
      const drop = new Set(gone.map((r) => r.uid));
      ok = await rewrite(node, (o) => { o.metadata!.ownerReferences = (o.metadata?.ownerReferences ?? []).filter((r) => !drop.has(r.uid)); });
    } else {
      const finalizers = current.metadata?.finalizers ?? [];
      let policy: PropagationPolicy = 'Background';
      if (waiting && (dependentsOf.get(uid)?.size ?? 0) > 0) policy = 'Foreground';
      else if (finalizers.includes(orphanFinalizer)) policy = 'Orphan';
      else if (finalizers.includes(foregroundFinalizer)) policy = 'Foreground';
      ok = await remove(node, policy);
    }
    return ok ? 'done' : 'retry';
  };

  /** kube's attemptToOrphanWorker: dependents lose the reference, then the owner its `orphan` finalizer. */
  const attemptToOrphan = async (uid: string): Promise<Attempt> => {
    const owner = nodes.get(uid);
    if (owner === undefined || !waitingToOrphan(owner)) return 'done';
    let ok = true;
    for (const d of [...(dependentsOf.get(uid) ?? [])]) {
      const dep = nodes.get(d);
      if (dep === undefined) continue;
      ok = (await rewrite(dep, (o) => {
        const refs = (o.metadata?.ownerReferences ?? []).filter((r) => r.uid !== uid);
        if (refs.length > 0) o.metadata!.ownerReferences = refs;
        else delete o.metadata!.ownerReferences;
      })) && ok;
    }
    if (ok) ok = await rewrite(owner, (o) => { o.metadata!.finalizers = (o.metadata?.finalizers ?? []).filter((f) => f !== orphanFinalizer); });
    return ok ? 'done' : 'retry';
  };

  // ---- the watches ------------------------------------------------------------------------------------------

  /**
   * Watches one stored resource: from its current state the first time (and after its history is gone, when
   * objects of it no longer in the state are forgotten), else from the last revision seen.
   */
  const watchResource = async (def: ResourceDef, after: string | undefined): Promise<void> => {
    if (stopped) return;
    let last = after;
    let listed: Set<string> | undefined = after === undefined ? new Set() : undefined;
    const restart = (from: string | undefined): void => {
      cancels.delete(def.keyPrefix);
      const timer = setTimeout(() => void watchResource(def, from), retryMs);
      timer.unref();
    };
    const started = await registry.store.watch(def, { namespace: '', selection: selectEverything, ...(after !== undefined ? { resourceVersion: after } : {}) }, {
      event(e: WatchEvent) {
        if (stopped) return;
        const object = e.object as KubeObject;
        const rv = object.metadata?.resourceVersion;
        if (rv !== undefined && rv !== '') last = rv;
        if (e.type === 'ADDED' || e.type === 'MODIFIED') {
          listed?.add(uidOf(object));
          observe(def, object);
        } else if (e.type === 'DELETED') {
          listed?.delete(uidOf(object));
          forget(uidOf(object));
        }
        settleIdle();
      },
      error(status: Status) {
        restart(status.code === 410 ? undefined : last);
      },
      end() {
        restart(last);
      },
    });
    if (!started.ok) {
      restart(started.status.code === 410 ? undefined : last);
      return;
    }
    if (stopped) {
      started.value.cancel();
      return;
    }
    cancels.set(def.keyPrefix, () => started.value.cancel());
    if (listed !== undefined && after === undefined) {
      // The initial state came before the watch started: objects of this resource not in it are gone.
      for (const [uid, node] of nodes) if (node.def.keyPrefix === def.keyPrefix && !listed.has(uid)) forget(uid);
      listed = undefined;
    }
  };
  starting = watched.length;
  for (const def of watched) {
    void watchResource(def, undefined).finally(() => {
      starting--;
      kick();
      settleIdle();
    });
  }

  return {
    checks: [{ name: 'garbage-collector', check: async () => (cancels.size >= watched.length ? undefined : 'not watching every resource') }],
    idle() {
      if (isIdle() || stopped) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
    async stop() {
      stopped = true;
      for (const c of [...cancels.values()]) c();
      cancels.clear();
      for (const t of retryTimers) clearTimeout(t);
      retryTimers.clear();
      toDelete.clear();
      toOrphan.clear();
      for (const w of idleWaiters.splice(0)) w();
      idleWaiters = [];
    },
  };
}
