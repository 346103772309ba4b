/**
 * The RBAC policy the authorizer reads: Roles, ClusterRoles, RoleBindings and ClusterRoleBindings, kept current from
 * the watch cache (kube's RBAC authorizer reads them through shared-informer listers), with the bindings indexed by
 * subject so that a decision looks only at the bindings that can concern the requesting user.
 */
import { fail, notFound, ok, type Names, type KubeObject, type Result } from '@svc-apiserver/api';
import type { HealthCheck } from '../../../health/health-check.js';
import { startInformer, type Informer, type InformerChange } from '../../../registry/informer.js';
import type { Registry } from '../../../registry/registry.js';
import type { UserInfo } from '../../../request/user-info.js';
import type { BindingObject, RoleObject } from '../../../registry/resources/rbac-types.js';

/** The group key of the RBAC resources in the naming table. */
export const rbacGroupKey = 'rbac.authorization';

/** The username prefix of service accounts (serviceaccount.ServiceAccountUsernamePrefix). */
export const serviceAccountUsernamePrefix = 'system:serviceaccount:';

/** The current RBAC policy. */
export interface RbacPolicySource {
  getRole(namespace: string, name: string): RoleObject | undefined;
  getClusterRole(name: string): RoleObject | undefined;
  /**
   * The ClusterRoleBindings that may concern `user`: those with a subject naming the user, one of its groups or its
   * service account, and those with a subject of an unknown kind (which the resolver reports). Each once.
   */
  clusterRoleBindingsFor(user: UserInfo): readonly BindingObject[];
  /** The RoleBindings of `namespace` that may concern `user`, chosen as {@link clusterRoleBindingsFor} does. */
  roleBindingsFor(user: UserInfo, namespace: string): readonly BindingObject[];
  /** Resolves once the whole policy has been read. */
  synced(): Promise<void>;
  hasSynced(): boolean;
  stop(): void;
  /** Fails until the policy has been read (a server must not authorize from a partial policy). */
  readonly health: HealthCheck;
}

/**
 * Bindings by subject, per scope (a RoleBinding's namespace, `''` for ClusterRoleBindings): by username for User
 * subjects and for ServiceAccount subjects (under the username the account authenticates as), by group name for
 * Group subjects, and apart for subjects of other kinds (which the resolver reports to everyone in the scope).
 */
interface BindingIndex {
  upsert(binding: BindingObject): void;
  remove(binding: BindingObject): void;
  candidates(scope: string, user: UserInfo): readonly BindingObject[];
}

/** Where a binding is filed: under a user, a group, or with the subjects of unknown kinds. */
type Filing = { readonly by: 'users' | 'groups'; readonly name: string } | { readonly by: 'other' };

/** One scope's bindings, each map keyed by binding id. */
interface ScopeIndex {
  readonly users: Map<string, Map<string, BindingObject>>;
  readonly groups: Map<string, Map<string, BindingObject>>;
  readonly other: Map<string, BindingObject>;
}

function bindingKey(b: KubeObject): string {
  return `${b.metadata?.namespace ?? ''}/${b.metadata?.name ?? ''}`;
}

/** Where one binding's subjects file it, within `scope` (the binding's namespace, `''` when cluster-wide). */
function filingsOf(binding: BindingObject, scope: string): Filing[] {
  const filings: Filing[] = [];
  for (const s of binding.subjects ?? []) {
    switch (s.kind) {
      case 'User':
        filings.push({ by: 'users', name: s.name });
        break;
      case 'Group':
        filings.push({ by: 'groups', name: s.name });
        break;
      case 'ServiceAccount': {
        // A RoleBinding's subject without a namespace means an account of the binding's namespace.
        const ns = s.namespace || scope;
        if (ns !== '') filings.push({ by: 'users', name: `${serviceAccountUsernamePrefix}${ns}:${s.name}` });
        break;
      }
      default:
        filings.push({ by: 'other' });
    }
  }
  return filings;
}

function createBindingIndex(): BindingIndex {
  const scopes = new Map<string, ScopeIndex>();
  // Where each binding is filed, to take it out again.
  const filed = new Map<string, { scope: string; filings: Filing[] }>();
  const remove = (binding: BindingObject): void => {
    const id = bindingKey(binding);
    const was = filed.get(id);
    if (was === undefined) return;
    filed.delete(id);
    const index = scopes.get(was.scope);
    if (index === undefined) return;
    for (const f of was.filings) {
      if (f.by === 'other') {
        index.other.delete(id);
        continue;
      }
      const set = index[f.by].get(f.name);
      set?.delete(id);
      if (set?.size === 0) index[f.by].delete(f.name);
    }
    if (index.users.size === 0 && index.groups.size === 0 && index.other.size === 0) scopes.delete(was.scope);
  };
  return {
    upsert(binding) {
      remove(binding);
      const id = bindingKey(binding);
      const scope = binding.metadata?.namespace ?? '';
      const filings = filingsOf(binding, scope);
      let index = scopes.get(scope);
      if (index === undefined) scopes.set(scope, (index = { users: new Map(), groups: new Map(), other: new Map() }));
      for (const f of filings) {
        if (f.by === 'other') {
          index.other.set(id, binding);
          continue;
        }
        let set = index[f.by].get(f.name);
        if (set === undefined) index[f.by].set(f.name, (set = new Map()));
        set.set(id, binding);
      }
      filed.set(id, { scope, filings });
    },
    remove,
    candidates(scope, user) {
      const index = scopes.get(scope);
      if (index === undefined) return [];
      const out: BindingObject[] = [];
      let seen: Set<BindingObject> | undefined;
      const add = (set: Map<string, BindingObject> | undefined): void => {
        if (set === undefined) return;
        for (const b of set.values()) {
          // Most users match through one subject only: dedupe lazily.
          if (out.length > 0) {
            seen ??= new Set(out);
            if (seen.has(b)) continue;
            seen.add(b);
          }
          out.push(b);
        }
      };
      add(index.users.get(user.username));
      for (const g of user.groups) add(index.groups.get(g));
      add(index.other);
      return out;
    },
  };
}

/** Plain policy objects, for {@link staticPolicySource}. */
export interface PolicyObjects {
  readonly roles?: readonly RoleObject[];
  readonly clusterRoles?: readonly RoleObject[];
  readonly roleBindings?: readonly BindingObject[];
  readonly clusterRoleBindings?: readonly BindingObject[];
}

/** A policy source over fixed objects (kube's StaticRoles test resolver): for tests and tools, no registry. */
export function staticPolicySource(objects: PolicyObjects): RbacPolicySource {
  const roles = new Map<string, RoleObject>();
  for (const r of objects.roles ?? []) roles.set(bindingKey(r), r);
  const clusterRoles = new Map<string, RoleObject>();
  for (const r of objects.clusterRoles ?? []) clusterRoles.set(r.metadata?.name ?? '', r);
  const rbIndex = createBindingIndex();
  for (const b of objects.roleBindings ?? []) rbIndex.upsert(b);
  const crbIndex = createBindingIndex();
  // A ClusterRoleBinding is cluster-scoped whatever namespace its object may carry.
  for (const b of objects.clusterRoleBindings ?? []) crbIndex.upsert({ ...b, metadata: { ...b.metadata, namespace: '' } });
  return {
    getRole: (namespace, name) => roles.get(`${namespace}/${name}`),
    getClusterRole: (name) => clusterRoles.get(name),
    clusterRoleBindingsFor: (user) => crbIndex.candidates('', user),
    roleBindingsFor: (user, namespace) => (namespace === '' ? [] : rbIndex.candidates(namespace, user)),
    synced: () => Promise.resolve(),
    hasSynced: () => true,
    stop() {},
    health: { name: 'rbac-policy', check: async () => undefined },
  };
}

/** Options of {@link startRbacPolicySource}. */
export interface RbacPolicySourceOptions {
  readonly log?: (message: string) => void;
  /** Pause before a failed informer watch starts again (default: the informer's). */
  readonly retryMs?: number;
}

/** Definitions of the four RBAC resources, looked up in the registry (a bug when they are not served). */
function rbacDefs(registry: Registry, names: Names) {
  const group = names.group(rbacGroupKey);
  const def = (resource: string) => {
    const d = registry.lookup(group, 'v1', resource);
    if (d === undefined) throw new Error(`${resource}.${group}/v1 is not served: RBAC cannot run`);
    return d;
  };
  return {
    roles: def('roles'), clusterroles: def('clusterroles'), rolebindings: def('rolebindings'), clusterrolebindings: def('clusterrolebindings'),
  };
}

/** Starts the informers of the four RBAC resources and the subject indexes over the bindings. */
export function startRbacPolicySource(registry: Registry, names: Names, options: RbacPolicySourceOptions = {}): RbacPolicySource {
  const defs = rbacDefs(registry, names);
  const informerOptions = { ...(options.log ? { log: options.log } : {}), ...(options.retryMs !== undefined ? { retryMs: options.retryMs } : {}) };
  const roles = startInformer(registry, defs.roles, informerOptions);
  const clusterRoles = startInformer(registry, defs.clusterroles, informerOptions);
  const roleBindings = startInformer(registry, defs.rolebindings, informerOptions);
  const clusterRoleBindings = startInformer(registry, defs.clusterrolebindings, informerOptions);
  const rbIndex = createBindingIndex();
  const crbIndex = createBindingIndex();
  // With replay, the objects an informer took in before the listener was added are indexed too.
  const feed = (informer: Informer, index: BindingIndex): void => {
    informer.onChange((change: InformerChange, object: KubeObject, old: KubeObject | undefined) => {
      if (change === 'DELETED') index.remove((old ?? object) as BindingObject);
      else index.upsert(object as BindingObject);
    }, { replay: true });
  };
  feed(roleBindings, rbIndex);
  feed(clusterRoleBindings, crbIndex);
  const all = [roles, clusterRoles, roleBindings, clusterRoleBindings];
  const hasSynced = (): boolean => all.every((i) => i.hasSynced());
  const synced = Promise.all(all.map((i) => i.synced())).then(() => undefined);
  return {
    getRole: (namespace, name) => roles.get(namespace, name) as RoleObject | undefined,
    getClusterRole: (name) => clusterRoles.get('', name) as RoleObject | undefined,
    clusterRoleBindingsFor: (user) => crbIndex.candidates('', user),
    roleBindingsFor: (user, namespace) => (namespace === '' ? [] : rbIndex.candidates(namespace, user)),
    synced: () => synced,
    hasSynced,
    stop() {
      for (const i of all) i.stop();
    },
    health: {
      name: 'rbac-policy',
      check: async () => {
        if (hasSynced()) return undefined;
        const pending = [['roles', roles], ['clusterroles', clusterRoles], ['rolebindings', roleBindings], ['clusterrolebindings', clusterRoleBindings]]
          .filter(([, i]) => !(i as Informer).hasSynced()).map(([n]) => n as string);
        return `RBAC policy not yet read: ${pending.join(', ')}`;
      },
    },
  };
}

/** An authoritative read of the role a binding refers to. */
export type RoleGetter = (kind: 'Role' | 'ClusterRole', namespace: string, name: string) => Promise<Result<RoleObject>>;

/**
 * Reads roles from storage rather than the informers' view (kube's escalation checks resolve roleRefs through the
 * role storage): a binding written right after its role must see it. NotFound is the storage's
 * (`clusterroles.rbac.authorization.svc.io "x" not found`).
 */
export function registryRoleGetter(registry: Registry, names: Names): RoleGetter {
  const defs = rbacDefs(registry, names);
  return async (kind, namespace, name) => {
    const def = kind === 'Role' ? defs.roles : defs.clusterroles;
    if (kind === 'Role' && namespace === '') return fail(notFound(def.qualified, name));
    const got = await registry.store.get(def, kind === 'Role' ? namespace : '', name);
    return got.ok ? ok(got.value as RoleObject) : got;
  };
}
