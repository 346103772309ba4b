/**
 * kube-apiserver's `rbac/bootstrap-roles` post-start hook: creates the default RBAC policy when missing and
 * reconciles what is stored with it (missing rules, aggregation selectors, labels, annotations and subjects added
 * back; a binding with another roleRef recreated; objects annotated autoupdate "false" left alone). It runs on every
 * replica; concurrent replicas meet AlreadyExists and Conflict, which re-read and retry. A namespaced role or binding
 * is created after its namespace is made sure of, as kube's reconciler does. The objects missing are created together
 * (through the start-up batch on the first attempt), those present reconciled one by one. Until it has finished once,
 * its health check fails (kube-apiserver's /readyz waits for it).
 */
import { fail, notFound, ok, type KubeObject, type Names, type Result, type Status } from '@svc-apiserver/api';
import { autoupdateAnnotation, bootstrapPolicy } from '../auth/authz/rbac/bootstrap-policy/bootstrap-policy.js';
import { reconcileBinding, reconcileRole, type Reconciled } from '../auth/authz/rbac/bootstrap-policy/reconcile.js';
import type { BindingObject, RoleObject } from '../registry/resources/rbac-types.js';
import type { HealthCheck } from '../health/health-check.js';
import { createObject } from '../registry/operations/create-object.js';
import { deleteObject } from '../registry/operations/delete-object.js';
import { final, retryOnConflict } from '../registry/operations/guaranteed-update.js';
import { updateObject } from '../registry/operations/update-object.js';
import type { Registry } from '../registry/registry.js';
import type { ResourceDef } from '../registry/resource-def.js';
import type { WriteFailure, WriteResult } from '../registry/store.js';
import { selectEverything } from '../registry/selection.js';
import { loopbackContext } from '../registry/operations/loopback.js';
import { runPostStartHook } from './post-start-hook.js';
import { directWriter, type StartupWriter } from './startup-batch.js';
import type { CreateItem } from '../registry/operations/create-objects.js';

/** The running hook. */
export interface RbacBootstrap {
  /** `poststarthook/rbac/bootstrap-roles`: fails until the policy has been ensured once. */
  readonly checks: HealthCheck[];
  /** Resolves once the policy is ensured (or the hook was stopped). */
  readonly done: Promise<void>;
  /** Writes made so far (creates, updates, deletes), for tests and logs. */
  writes(): number;
  stop(): void;
}

/** Options of {@link startRbacBootstrap}. */
export interface RbacBootstrapOptions {
  /** Pause after a failed attempt (default 1 s). */
  readonly retryMs?: number;
  readonly log?: (message: string) => void;
  /** Where the missing objects are created (default: at once). */
  readonly writer?: StartupWriter;
}


/**
 * Makes sure a namespace exists before a role or binding is created in it (kube's reconciliation tryEnsureNamespace):
 * gets it, creates it when missing, and takes AlreadyExists and Forbidden as done. The policy's namespaced objects
 * live in the system and public namespaces, which the system namespaces hook creates at the same time; without this
 * the first attempt would meet their absence and wait for its retry.
 */
async function tryEnsureNamespace(registry: Registry, namespace: string): Promise<Result<void>> {
  const def = registry.lookup('', 'v1', 'namespaces');
  if (def === undefined) return ok(undefined);
  const got = await registry.store.get(def, '', namespace);
  if (got.ok || got.error.code === 403) return ok(undefined);
  if (got.error.code !== 404) return fail(got.error);
  const created = await createObject(registry, def, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }, loopbackContext(registry.names, 'apiserver'));
  return created.ok || created.error.reason === 'AlreadyExists' || created.error.code === 403 ? ok(undefined) : fail(created.error);
}

/**
 * Ensures one object (kube's ReconcileRoleOptions.Run / ReconcileRoleBindingOptions.Run): create when missing,
 * otherwise reconcile and write the result unless protected. A write that meets another replica's (Conflict,
 * AlreadyExists, a recreate's delete that finds the object changed or gone) reads again and starts over, within the
 * registry's one bound on write attempts. The value is the number of writes made.
 */
function ensureObject<T extends KubeObject>(
  registry: Registry, def: ResourceDef, expected: T,
  reconcile: (existing: T, expected: T) => Reconciled<T>,
  listed: T | undefined,
  ensureNamespace: (namespace: string) => Promise<Result<void>>,
): Promise<Result<number>> {
  const namespace = expected.metadata?.namespace ?? '';
  const name = expected.metadata?.name ?? '';
  let first = true;
  const retryIf = (raced: boolean, status: Status): WriteFailure => ({ ok: false, error: status, conflict: raced });
  return retryOnConflict(async (): Promise<WriteResult<number>> => {
    // The first attempt works from the list read for the whole step; after a conflict, the object is read again.
    const got: Result<KubeObject> = !first
      ? await registry.store.get(def, namespace, name)
      : listed !== undefined ? ok(listed) : fail(notFound({ group: def.group, resource: def.resource }, name));
    first = false;
    if (!got.ok) {
      if (got.error.code !== 404) return final(got.error);
      const ns = def.namespaced ? await ensureNamespace(namespace) : ok(undefined);
      if (!ns.ok) return final(ns.error);
      const created = await createObject(registry, def, structuredClone(expected), loopbackContext(registry.names, 'apiserver'));
      return created.ok ? ok(1) : retryIf(created.error.reason === 'AlreadyExists', created.error);
    }
    const existing = got.value as T;
    const result = reconcile(existing, expected);
    if (result.protected || result.operation === 'none') return ok(0);
    if (result.operation === 'update') {
      const updated = await updateObject(registry, def, '', result.object, existing, loopbackContext(registry.names, 'apiserver'));
      return updated.ok ? ok(1) : retryIf(updated.conflict || updated.error.reason === 'Conflict', updated.error);
    }
    // recreate: delete at this resourceVersion, then create the reconciled object afresh.
    const rv = existing.metadata?.resourceVersion;
    const removed = await deleteObject(registry, def, namespace, name, loopbackContext(registry.names, 'apiserver'), {
      ...(existing.metadata?.uid !== undefined ? { uid: existing.metadata.uid } : {}),
      ...(rv !== undefined ? { resourceVersion: rv } : {}),
    });
    if (!removed.ok) return retryIf(removed.error.code === 404 || removed.error.reason === 'Conflict', removed.error);
    const ns = def.namespaced ? await ensureNamespace(namespace) : ok(undefined);
    if (!ns.ok) return final(ns.error);
    const fresh = structuredClone(result.object);
    const meta = (fresh.metadata ??= {});
    fresh.metadata = {
      name: meta.name ?? name,
      ...(meta.namespace !== undefined ? { namespace: meta.namespace } : {}),
      ...(meta.labels !== undefined ? { labels: meta.labels } : {}),
      ...(meta.annotations !== undefined ? { annotations: meta.annotations } : {}),
    };
    const created = await createObject(registry, def, fresh, loopbackContext(registry.names, 'apiserver'));
    return created.ok ? ok(2) : retryIf(created.error.reason === 'AlreadyExists', created.error);
  });
}

/** Starts the hook. */
export function startRbacBootstrap(registry: Registry, names: Names, options: RbacBootstrapOptions = {}): RbacBootstrap {
  const retryMs = options.retryMs ?? 1000;
  const autoupdate = autoupdateAnnotation(names);
  const group = names.group('rbac.authorization');
  let written = 0;
  const writer = options.writer ?? directWriter(registry);

  const attempt = async (stopped: () => boolean): Promise<string | undefined> => {
    const policy = bootstrapPolicy(names);
    const defs = {
      clusterroles: registry.lookup(group, 'v1', 'clusterroles'),
      clusterrolebindings: registry.lookup(group, 'v1', 'clusterrolebindings'),
      roles: registry.lookup(group, 'v1', 'roles'),
      rolebindings: registry.lookup(group, 'v1', 'rolebindings'),
    };
    const roleReconcile = (e: RoleObject, x: RoleObject) => reconcileRole(e, x, autoupdate);
    const bindingReconcile = (e: BindingObject, x: BindingObject) => reconcileBinding(e, x, autoupdate);
    // kube's order: cluster roles, cluster role bindings, then the namespaced roles and role bindings.
    const steps: [ResourceDef | undefined, readonly KubeObject[], (e: never, x: never) => Reconciled<KubeObject>][] = [
      [defs.clusterroles, policy.clusterRoles, roleReconcile as never],
      [defs.clusterrolebindings, policy.clusterRoleBindings, bindingReconcile as never],
      [defs.roles, policy.roles, roleReconcile as never],
      [defs.rolebindings, policy.roleBindings, bindingReconcile as never],
    ];
    const errors: string[] = [];
    // One namespace check per namespace and attempt, shared by the objects created in it.
    const namespaces = new Map<string, Promise<Result<void>>>();
    const ensureNamespace = (namespace: string): Promise<Result<void>> => {
      let ensured = namespaces.get(namespace);
      if (ensured === undefined) {
        ensured = tryEnsureNamespace(registry, namespace);
        namespaces.set(namespace, ensured);
      }
      return ensured;
    };
    const served = steps.filter((step): step is [ResourceDef, readonly KubeObject[], (e: never, x: never) => Reconciled<KubeObject>] => step[0] !== undefined);
    if (stopped()) return 'stopped';
    // One list per resource, read side by side; the missing objects are then created together and the present ones
    // reconciled side by side (their writes share storage commits).
    const lists = await Promise.all(served.map(([def]) => registry.store.list(def, { namespace: '', selection: selectEverything })));
    const missing: { def: ResourceDef; object: KubeObject; reconcile: (e: KubeObject, x: KubeObject) => Reconciled<KubeObject> }[] = [];
    const present: Promise<void>[] = [];
    const record = (def: ResourceDef, object: KubeObject, ensured: Result<number>): void => {
      if (ensured.ok) {
        written += ensured.value;
        return;
      }
      errors.push(`unable to reconcile ${def.kind} ${object.metadata?.name ?? ''}: ${ensured.error.message ?? ensured.error.reason ?? 'failed'}`);
    };
    served.forEach(([def, objects, reconcileStep], i) => {
      const current = lists[i]!;
      if (!current.ok) {
        errors.push(`unable to list ${def.resource}: ${current.error.message ?? ''}`);
        return;
      }
      const reconcile = reconcileStep as (e: KubeObject, x: KubeObject) => Reconciled<KubeObject>;
      const byKey = new Map(current.value.items.map((o) => [`${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`, o]));
      for (const object of objects) {
        const listed = byKey.get(`${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`);
        if (listed === undefined) missing.push({ def, object, reconcile });
        else present.push(ensureObject(registry, def, object, reconcile, listed, ensureNamespace).then((r) => record(def, object, r)));
      }
    });
    // The namespaces of the missing namespaced objects that do not exist are created with them (in the wave before).
    const namespaceDef = registry.lookup('', 'v1', 'namespaces');
    const wantedNamespaces = [...new Set(missing.filter((m) => m.def.namespaced).map((m) => m.object.metadata?.namespace ?? ''))];
    const absent = namespaceDef === undefined ? [] : (await Promise.all(wantedNamespaces.map(async (namespace) => {
      const got = await registry.store.get(namespaceDef, '', namespace);
      return !got.ok && got.error.code === 404 ? [namespace] : [];
    }))).flat();
    const items: CreateItem[] = [
      ...absent.map((name) => ({ def: namespaceDef!, object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } as KubeObject })),
      ...missing.map((m) => ({ def: m.def, object: structuredClone(m.object) })),
    ];
    const created = (await writer.create(items)).slice(absent.length);
    // One that another replica created meanwhile is read and reconciled; another failure is retried by the hook.
    const raced = missing.flatMap((m, i) => {
      const result = created[i]!;
      if (result.ok) written += 1;
      else if (result.error.reason === 'AlreadyExists') return [ensureObject(registry, m.def, m.object, m.reconcile, undefined, ensureNamespace).then((r) => record(m.def, m.object, r))];
      else record(m.def, m.object, fail(result.error));
      return [];
    });
    await Promise.all([...present, ...raced]);
    return errors.length > 0 ? errors.join('; ') : undefined;
  };

  const hook = runPostStartHook(async (stopped) => {
    try {
      return await attempt(stopped);
    } finally {
      // The first attempt's place in the start-up batch is given up if it ended before creating.
      writer.release();
    }
  }, retryMs, options.log);
  return {
    checks: [{ name: 'poststarthook/rbac/bootstrap-roles', check: hook.check }],
    done: hook.done,
    writes: () => written,
    stop: hook.stop,
  };
}
