/**
 * Typed access to a resource, as client-go's typed clientsets give Go (`clientset.CoreV1().Pods(ns).List(...)`):
 * `typed(client, coreV1.pods, 'demo').list()` answers `Result<TypedList<coreV1.Pod>>`, and only the verbs and
 * subresources the resource serves exist on the handle.
 *
 * The shape is one generic handle over the REST client, driven by a resource descriptor, rather than a generated
 * class per group: the descriptors (generated for every built-in kind in `generated/`, or written by hand for a
 * custom resource) are a few short object literals, the types cost nothing at run time, and an application
 * bundles only the descriptors it imports.
 *
 * Descriptors carry the neutral group key of the naming table (`coordination`), never a served group name: the
 * handle spells the group in the server's flavour (`coordination.svc.io` or `coordination.k8s.io`), read once from
 * the server's groups unless the client was made with a `flavour`. Objects sent without `apiVersion` or `kind`
 * get the descriptor's.
 */
import { fail, namesFor, ok, renamedGroupKeys, type KubeObject, type Result, type Status, type WatchEvent } from '@svc-apiserver/api';
import { resourcePath, withQuery, type ResourceRef } from './paths.js';
import type { ApplyOptions, DeleteOptions, GetOptions, ListOptions, PatchOptions, PatchType, RestClient, WriteOptions } from './rest-client.js';
import type { HttpResponse } from './transport.js';
import type { WatchOptions } from './watch.js';
import { statusFromResponse, transportFailure } from './call-failure.js';
import { serverFlavour } from './server-flavour.js';

/** The verbs of discovery. */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** A subresource read and written as an object (`status`, `scale`, `eviction`, `token`, ...) with these verbs. */
export interface ObjectSubresource<O = unknown, V extends Verb = Verb> {
  readonly object: O;
  readonly verbs: V;
}

/** A subresource served by a connection to the node or a service (`log`, `exec`, `proxy`, ...), not an object. */
export interface ConnectSubresource {
  readonly connect: true;
}

/** The subresources of a resource by name. */
export type SubresourceTypes = Readonly<Record<string, ObjectSubresource<unknown, Verb> | ConnectSubresource>>;

/**
 * What a resource is: its neutral group key (`''` for core, `coordination` for `coordination.<flavour>.io`, a
 * custom group as itself), version, plural, kind and scope; and, as types only, its object type, verbs and
 * subresources.
 */
export interface ResourceType<T = unknown, V extends Verb = Verb, S extends SubresourceTypes = SubresourceTypes> {
  readonly groupKey: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** Never set: carries the types. */
  readonly types?: { readonly object: T; readonly verbs: V; readonly subresources: S };
}

/** A list of typed objects. */
export interface TypedList<T> {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly resourceVersion?: string; readonly continue?: string; readonly remainingItemCount?: number };
  readonly items: T[];
}

/** A typed watch: iterate it once; `close()` ends it. */
export interface TypedWatch<T> extends AsyncIterable<WatchEvent<T>> {
  readonly resourceVersion: string | undefined;
  close(): void;
}

/** Every verb's methods; a handle shows those its resource serves. */
export interface TypedVerbs<T> {
  get(name: string, options?: GetOptions): Promise<Result<T>>;
  list(options?: ListOptions): Promise<Result<TypedList<T>>>;
  /** Every object, in pages of `limit` when set (see `RestClient.listAll`). */
  listAll(options?: ListOptions): Promise<Result<TypedList<T>>>;
  listPages(options?: ListOptions): AsyncGenerator<Result<TypedList<T>>>;
  watch(options?: WatchOptions): TypedWatch<T>;
  create(object: T, options?: WriteOptions): Promise<Result<T>>;
  update(object: T, options?: WriteOptions): Promise<Result<T>>;
  patch(name: string, type: PatchType, patch: unknown, options?: PatchOptions): Promise<Result<T>>;
  /** Server-side apply of a partial object. */
  apply(object: T, options: ApplyOptions): Promise<Result<T>>;
  delete(name: string, options?: DeleteOptions): Promise<Result<T | Status>>;
  deleteCollection(options?: ListOptions & DeleteOptions): Promise<Result<TypedList<T> | Status>>;
}

/** Which methods each verb brings. */
interface VerbMethods {
  get: 'get';
  list: 'list' | 'listAll' | 'listPages';
  watch: 'watch';
  create: 'create';
  update: 'update';
  patch: 'patch' | 'apply';
  delete: 'delete';
  deletecollection: 'deleteCollection';
}

/** An object subresource's methods, each naming the parent object. */
export interface TypedSubresourceVerbs<O> {
  get(name: string, options?: GetOptions): Promise<Result<O>>;
  /** A create on the subresource: an Eviction, a Binding, a TokenRequest. */
  create(name: string, object: O, options?: WriteOptions): Promise<Result<O>>;
  update(name: string, object: O, options?: WriteOptions): Promise<Result<O>>;
  patch(name: string, type: PatchType, patch: unknown, options?: PatchOptions): Promise<Result<O>>;
  apply(name: string, object: O, options: ApplyOptions): Promise<Result<O>>;
}

interface SubresourceVerbMethods {
  get: 'get';
  create: 'create';
  update: 'update';
  patch: 'patch' | 'apply';
}

/** A request through a connect subresource. */
export interface ConnectRequest {
  /** Default GET. */
  readonly method?: string;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** The path after the subresource (`proxy`: the path on the pod or service). */
  readonly path?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  readonly signal?: AbortSignal;
}

/** A connect subresource: one request, its 2xx answer whole (a pod's `log`, a `proxy` call), else its Status. */
export interface TypedConnect {
  request(name: string, request?: ConnectRequest): Promise<Result<HttpResponse>>;
}

/** The handle of one subresource. */
export type TypedSubresource<S> = S extends ObjectSubresource<infer O, infer V>
  ? Pick<TypedSubresourceVerbs<O>, SubresourceVerbMethods[V & keyof SubresourceVerbMethods]>
  : TypedConnect;

/** The handle of a resource: the methods of its verbs, its subresources, and where it is. */
export type TypedResource<T, V extends Verb = Verb, S extends SubresourceTypes = SubresourceTypes> = Pick<TypedVerbs<T>, VerbMethods[V]> & {
  readonly type: ResourceType<T, V, S>;
  /** The namespace of name-addressed calls (and of lists, unless absent: all namespaces). */
  readonly namespace: string | undefined;
  /** The handle of a subresource. */
  subresource<K extends keyof S & string>(name: K): TypedSubresource<S[K]>;
  /** The resource's path parts in the server's flavour (for informers and raw calls). */
  ref(): Promise<Result<ResourceRef>>;
};

const renamed: ReadonlySet<string> = new Set(renamedGroupKeys);

/** The served group of a descriptor: renamed keys through the server's flavour, other groups as they are. */
async function groupOf(client: RestClient, groupKey: string): Promise<Result<string>> {
  if (!renamed.has(groupKey)) return ok(groupKey);
  const flavour = await serverFlavour(client);
  return flavour.ok ? ok(namesFor(flavour.value).group(groupKey)) : flavour;
}

/**
 * The typed handle of a resource (see the module comment). `namespace` scopes a namespaced resource; without it,
 * lists and watches span every namespace, creates and updates use the object's own namespace, and name-addressed
 * calls fail before sending anything.
 */
export function typed<T, V extends Verb, S extends SubresourceTypes>(client: RestClient, type: ResourceType<T, V, S>, namespace?: string): TypedResource<T, V, S> {
  const ns = type.namespaced ? namespace : undefined;
  let resolved: Promise<Result<ResourceRef>> | undefined;
  const ref = (): Promise<Result<ResourceRef>> => {
    resolved ??= groupOf(client, type.groupKey).then((g) => {
      if (!g.ok) {
        resolved = undefined;
        return g;
      }
      return ok({ group: g.value, version: type.version, resource: type.resource, ...(ns === undefined ? {} : { namespace: ns }) });
    });
    return resolved;
  };
  /** The ref of a call that names an object: a namespaced resource needs a namespace. */
  const named = async (): Promise<Result<ResourceRef>> => {
    if (type.namespaced && ns === undefined) return fail(transportFailure(`${type.resource} are namespaced: give typed() a namespace to name one`));
    return ref();
  };
  const apiVersion = async (): Promise<Result<string>> => {
    const r = await ref();
    return r.ok ? ok(r.value.group === '' ? type.version : `${r.value.group}/${type.version}`) : r;
  };
  /** The object with the descriptor's apiVersion and kind where it has none. */
  const complete = async (object: T): Promise<Result<KubeObject>> => {
    const o = object as KubeObject;
    if (o.apiVersion !== undefined && o.kind !== undefined) return ok(o);
    const av = await apiVersion();
    return av.ok ? ok({ ...o, apiVersion: o.apiVersion ?? av.value, kind: o.kind ?? type.kind }) : av;
  };
  const cast = <X>(r: Result<unknown>): Result<X> => r as Result<X>;

  const verbs: TypedVerbs<T> = {
    async get(name, options) {
      const r = await named();
      return r.ok ? cast(await client.get(r.value, name, options)) : r;
    },
    async list(options) {
      const r = await ref();
      return r.ok ? cast(await client.list(r.value, options)) : r;
    },
    async listAll(options) {
      const r = await ref();
      return r.ok ? cast(await client.listAll(r.value, options)) : r;
    },
    async *listPages(options) {
      const r = await ref();
      if (!r.ok) {
        yield r;
        return;
      }
      for await (const page of client.listPages(r.value, options)) yield cast(page);
    },
    watch(options) {
      return typedWatch<T>(client, ref, options);
    },
    async create(object, options) {
      const [r, body] = [await ref(), await complete(object)];
      if (!r.ok) return r;
      return body.ok ? cast(await client.create(r.value, body.value, options)) : body;
    },
    async update(object, options) {
      const [r, body] = [await ref(), await complete(object)];
      if (!r.ok) return r;
      return body.ok ? cast(await client.update(r.value, body.value, options)) : body;
    },
    async patch(name, patchType, patch, options) {
      const r = await named();
      return r.ok ? cast(await client.patch(r.value, name, patchType, patch, options)) : r;
    },
    async apply(object, options) {
      const [r, body] = [await ref(), await complete(object)];
      if (!r.ok) return r;
      return body.ok ? cast(await client.apply(r.value, body.value, options)) : body;
    },
    async delete(name, options) {
      const r = await named();
      return r.ok ? cast(await client.delete(r.value, name, options)) : r;
    },
    async deleteCollection(options) {
      const r = await ref();
      return r.ok ? cast(await client.deleteCollection(r.value, options)) : r;
    },
  };

  const subresource = (sub: string): TypedSubresourceVerbs<unknown> & TypedConnect => ({
    async get(name, options) {
      const r = await named();
      return r.ok ? cast(await client.get(r.value, name, { ...options, subresource: sub })) : r;
    },
    async create(name, object, options) {
      const r = await named();
      return r.ok ? cast(await client.create(r.value, object as KubeObject, { ...options, subresource: sub, name })) : r;
    },
    async update(name, object, options) {
      const r = await named();
      if (!r.ok) return r;
      const o = object as KubeObject;
      return cast(await client.update(r.value, { ...o, metadata: { ...o.metadata, name } }, { ...options, subresource: sub }));
    },
    async patch(name, patchType, patch, options) {
      const r = await named();
      return r.ok ? cast(await client.patch(r.value, name, patchType, patch, { ...options, subresource: sub })) : r;
    },
    async apply(name, object, options) {
      const r = await named();
      return r.ok ? cast(await client.patch(r.value, name, 'apply', object, { ...options, subresource: sub })) : r;
    },
    async request(name, req = {}) {
      const r = await named();
      if (!r.ok) return r;
      const path = withQuery(`${resourcePath(r.value, name, sub)}${req.path === undefined ? '' : `/${req.path.replace(/^\//, '')}`}`, req.query ?? {});
      const res = await client.raw({
        method: req.method ?? 'GET', path,
        ...(req.headers === undefined ? {} : { headers: req.headers }),
        ...(req.body === undefined ? {} : { body: req.body }),
        ...(req.signal === undefined ? {} : { signal: req.signal }),
      });
      if (!res.ok) return res;
      const { status, body, headers } = res.value;
      return status >= 200 && status <= 299 ? res : fail(statusFromResponse(status, body, headers['content-type']));
    },
  });

  return {
    ...verbs,
    type,
    namespace: ns,
    subresource: (name) => subresource(name) as never,
    ref,
  } as TypedResource<T, V, S>;
}

/** A watch that resolves its ref first; a failure to resolve ends it with that Status as an ERROR event. */
function typedWatch<T>(client: RestClient, ref: () => Promise<Result<ResourceRef>>, options: WatchOptions | undefined): TypedWatch<T> {
  let inner: ReturnType<RestClient['watch']> | undefined;
  let closed = false;
  return {
    get resourceVersion() {
      return inner?.resourceVersion ?? options?.resourceVersion;
    },
    close() {
      closed = true;
      inner?.close();
    },
    async *[Symbol.asyncIterator]() {
      const r = await ref();
      if (!r.ok) {
        yield { type: 'ERROR', object: r.error as unknown as T };
        return;
      }
      if (closed) return;
      inner = client.watch(r.value, options);
      for await (const event of inner) yield event as unknown as WatchEvent<T>;
    },
  };
}
