/**
 * The garbage collector (pkg/controller/garbagecollector) over `metadata.ownerReferences`, acting on the registry
 * in-process. As kube's GraphBuilder does, it keeps a dependency graph current from one shared informer per stored
 * resource (fed by the watch cache): uid → node {identity, owners, being deleted, deleting dependents (foreground),
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
 * The workers start once every informer has synced, so an owner read as existing is surely in the graph (its
 * deletion will queue its dependents again). Failed items are retried with back-off. A reference to a kind this
 * server does not serve is left alone.
 */
import { apiVersionOf, fail, ok, type KubeObject, type OwnerReference, type Result } from '@svc-apiserver/api';
import {
  deleteObject, foregroundFinalizer, orphanFinalizer, type PropagationPolicy,
} from '../registry/operations/delete-object.js';
import { updateObject } from '../registry/operations/update-object.js';
import type { Registry } from '../registry/registry.js';
import type { InformerChange } from '../registry/informer.js';
import type { ResourceDef } from '../registry/resource-def.js';
import { loopbackContext } from '../registry/operations/loopback.js';
import { done, retry, runController, type Controller, type ControllerContext, type SyncResult } from './kit/controller.js';
import { createWorkQueue } from './kit/work-queue.js';

/** Options of the collector. */
export interface GarbageCollectorOptions extends Omit<ControllerContext, 'registry' | 'names'> {
  /** Accepted for compatibility; events are handled as they come (no pass to coalesce). */
  readonly debounceMs?: number;
}

/** `--concurrent-gc-syncs`' default: workers of each of the two queues. */
const workers = 20;

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

/** Starts the collector. */
export function startGarbageCollector(registry: Registry, options: GarbageCollectorOptions = {}): Controller {
  const op = loopbackContext(registry.names, 'controller-manager');
  const nodes = new Map<string, GraphNode>();
  /** Owner uid → uids of the observed objects that reference it (the owner itself may be absent). */
  const dependentsOf = new Map<string, Set<string>>();
  /** kube's attemptToDelete and attemptToOrphan queues, of uids. */
  const toDelete = createWorkQueue();
  const toOrphan = createWorkQueue();

  const byTypeCache = new Map<string, ResourceDef | undefined>();
  const defOf = (ref: OwnerReference): ResourceDef | undefined => {
    const id = `${ref.apiVersion}\u0000${ref.kind}`;
    if (!byTypeCache.has(id)) {
      byTypeCache.set(id, registry.all().find((d) => apiVersionOf(d.group, d.version) === ref.apiVersion && d.kind === ref.kind));
    }
    return byTypeCache.get(id);
  };

  // ---- the graph, kept current from informer events -----------------------------------------------------------

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
    if (owner !== undefined && deletingDependents(owner)) toDelete.add(ownerUid);
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
    })) toDelete.add(uid);
    // A blocking reference may have been cleared, or this dependent may have started being deleted.
    if (old !== undefined) for (const r of node.owners) ownerMayBeFree(r.uid);
    if (waitingToOrphan(node)) toOrphan.add(uid);
    if (deletingDependents(node)) {
      toDelete.add(uid);
      // Starts waiting: its dependents are to be deleted (kube's processTransitions). In a background deletion
      // they are looked at once the owner is gone (its DELETED event).
      if (old === undefined || !deletingDependents(old)) for (const d of dependentsOf.get(uid) ?? []) toDelete.add(d);
    }
  };

  const forget = (uid: string): void => {
    const node = nodes.get(uid);
    if (node === undefined) return;
    nodes.delete(uid);
    for (const r of node.owners) {
      unlink(r.uid, uid);
      ownerMayBeFree(r.uid);
    }
    // The references to it are dangling now.
    for (const d of dependentsOf.get(uid) ?? []) toDelete.add(d);
  };

  // ---- the workers ------------------------------------------------------------------------------------------

  const describe = (node: GraphNode): string => `${node.def.resource} ${node.namespace === '' ? '' : `${node.namespace}/`}${node.name}`;

  /** The object as stored now, if it is still the node's (same uid). */
  const latest = async (node: GraphNode): Promise<Result<KubeObject | undefined, string>> => {
    const got = await registry.store.get(node.def, node.namespace, node.name);
    if (!got.ok) {
      return got.error.code === 404 ? ok(undefined) : fail(`reading ${describe(node)}: ${got.error.message ?? 'failed'}`);
    }
    return ok(uidOf(got.value) === node.uid ? got.value : undefined);
  };

  /** Writes `mutate(current)` over the current object. */
  const rewrite = async (node: GraphNode, mutate: (o: KubeObject) => void): Promise<SyncResult> => {
    const got = await latest(node);
    if (!got.ok) return retry(got.error);
    if (got.value === undefined) return done;
    const next = structuredClone(got.value);
    mutate(next);
    const written = await updateObject(registry, node.def, '', next, got.value, op);
    return written.ok || written.error.code === 404 ? done : retry(`updating ${describe(node)}: ${written.error.message ?? 'failed'}`);
  };

  const remove = async (node: GraphNode, policy: PropagationPolicy): Promise<SyncResult> => {
    const result = await deleteObject(registry, node.def, node.namespace, node.name, op, { uid: node.uid }, { propagationPolicy: policy });
    return result.ok || result.error.code === 404 || result.error.code === 409
      ? done
      : retry(`deleting ${describe(node)}: ${result.error.message ?? 'failed'}`);
  };

  /** How an owner reference stands, by a direct read of the owner (kube's isDangling). */
  const ownerState = async (dep: GraphNode, ref: OwnerReference): Promise<'solid' | 'dangling' | 'waiting' | 'unknown'> => {
    const def = defOf(ref);
    if (def === undefined) return 'solid';
    const got = await registry.store.get(def, def.namespaced ? dep.namespace : '', ref.name);
    if (!got.ok) return got.error.code === 404 ? 'dangling' : 'unknown';
    if (uidOf(got.value) !== ref.uid) return 'dangling';
    const meta = got.value.metadata ?? {};
    return meta.deletionTimestamp !== undefined && (meta.finalizers ?? []).includes(foregroundFinalizer) ? 'waiting' : 'solid';
  };

  /** kube's processDeletingDependentsItem: the foreground finalizer goes once no blocking dependent is left. */
  const processDeletingDependents = async (owner: GraphNode): Promise<SyncResult> => {
    const blocking: GraphNode[] = [];
    for (const d of dependentsOf.get(owner.uid) ?? []) {
      const dep = nodes.get(d);
      if (dep !== undefined && dep.owners.some((r) => r.uid === owner.uid && r.blockOwnerDeletion === true)) blocking.push(dep);
    }
    if (blocking.length === 0) {
      return rewrite(owner, (o) => { o.metadata!.finalizers = (o.metadata?.finalizers ?? []).filter((f) => f !== foregroundFinalizer); });
    }
    // The owner is queued again when one of them goes or drops its reference.
    for (const dep of blocking) if (!dep.beingDeleted) toDelete.add(dep.uid);
    return done;
  };

  /** kube's attemptToDeleteItem. */
  const attemptToDelete = async (uid: string): Promise<SyncResult> => {
    const node = nodes.get(uid);
    if (node === undefined) return done;
    if (deletingDependents(node)) return processDeletingDependents(node);
    if (node.beingDeleted) return done;
    // Decide on the stored object, not on the graph's possibly older view of it.
    const got = await latest(node);
    if (!got.ok) return retry(got.error);
    const current = got.value;
    if (current === undefined || current.metadata?.deletionTimestamp !== undefined) return done;
    const refs = current.metadata?.ownerReferences ?? [];
    if (refs.length === 0) return done;
    const solid: OwnerReference[] = [];
    const gone: OwnerReference[] = [];
    let waiting = false;
    for (const ref of refs) {
      const state = await ownerState(node, ref);
      if (state === 'unknown') return retry(`reading the owner ${ref.kind} ${ref.name} of ${describe(node)} failed`);
      if (state === 'solid') solid.push(ref);
      else {
        gone.push(ref);
        if (state === 'waiting') waiting = true;
      }
    }
    if (gone.length === 0) return done;
    if (solid.length > 0) {
      const drop = new Set(gone.map((r) => r.uid));
      return rewrite(node, (o) => { o.metadata!.ownerReferences = (o.metadata?.ownerReferences ?? []).filter((r) => !drop.has(r.uid)); });
    }
    const finalizers = current.metadata?.finalizers ?? [];
    let policy: PropagationPolicy = 'Background';
    if (waiting && (dependentsOf.get(uid)?.size ?? 0) > 0) policy = 'Foreground';
    else if (finalizers.includes(orphanFinalizer)) policy = 'Orphan';
    else if (finalizers.includes(foregroundFinalizer)) policy = 'Foreground';
    return remove(node, policy);
  };

  /** kube's attemptToOrphanWorker: dependents lose the reference, then the owner its `orphan` finalizer. */
  const attemptToOrphan = async (uid: string): Promise<SyncResult> => {
    const owner = nodes.get(uid);
    if (owner === undefined || !waitingToOrphan(owner)) return done;
    const failures: string[] = [];
    for (const d of [...(dependentsOf.get(uid) ?? [])]) {
      const dep = nodes.get(d);
      if (dep === undefined) continue;
      const result = await rewrite(dep, (o) => {
        const refs = (o.metadata?.ownerReferences ?? []).filter((r) => r.uid !== uid);
        if (refs.length > 0) o.metadata!.ownerReferences = refs;
        else delete o.metadata!.ownerReferences;
      });
      if (result.kind === 'retry') failures.push(result.reason);
    }
    if (failures.length > 0) return retry(failures.join('; '));
    return rewrite(owner, (o) => { o.metadata!.finalizers = (o.metadata?.finalizers ?? []).filter((f) => f !== orphanFinalizer); });
  };

  // ---- the informers -----------------------------------------------------------------------------------------

  // Several served versions share one stored resource: one metadata informer per stored resource, through its
  // first def (the graph needs nothing but metadata).
  const storedResources = (): ResourceDef[] => [...new Map([...registry.all()].reverse().map((d) => [d.keyPrefix, d] as const)).values()];
  const handlerOf = (def: ResourceDef) => (change: InformerChange, object: KubeObject): void => {
    // A relist tells of objects gone meanwhile as DELETED, so the graph forgets them too.
    if (change === 'DELETED') forget(uidOf(object));
    else observe(def, object);
  };
  return runController('garbagecollector', { ...options, registry }, (informers) => {
    const watched = new Set<string>();
    const initial = storedResources();
    for (const d of initial) watched.add(d.keyPrefix);
    // Resources defined later (custom resources) get their monitors as they come (kube's periodic resync of its
    // monitors from discovery), and a kind looked up before it was served is looked up again.
    const removeRegistryListener = registry.onChange(() => {
      byTypeCache.clear();
      for (const def of storedResources()) {
        if (watched.has(def.keyPrefix)) continue;
        watched.add(def.keyPrefix);
        informers.metadataInformerFor(def).onChange(handlerOf(def), { replay: true });
      }
    });
    return {
      healthCheckName: 'garbage-collector',
      handlers: initial.map((def) => ({ informer: informers.metadataInformerFor(def), listener: handlerOf(def) })),
      loops: [{ queue: toOrphan, sync: attemptToOrphan, workers }, { queue: toDelete, sync: attemptToDelete, workers }],
      onStop: removeRegistryListener,
    };
  });
}
