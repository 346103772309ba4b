/**
 * The REST client: typed verbs over the transport, each returning the decoded object or the server's Status.
 * Mirrors client-go's dynamic client (get, list, create, update, patch, apply, delete, deletecollection, watch),
 * its rest client's retries (see retry-policy) and its pager (list in pages, falling back to one full list when
 * a continue token expires).
 */
import { fail, ok, type Flavour, type KubeList, type KubeObject, type Result, type Status } from '@svc-apiserver/api';
import type { ConnectionConfig } from './kubeconfig.js';
import { resourcePath, withQuery, type ResourceRef } from './paths.js';
import { statusFromResponse, transportFailure } from './call-failure.js';
import { createTransport, type HttpRequest, type HttpResponse, type Transport, type TransportOptions } from './transport.js';
import { watchResource, type WatchHandle, type WatchOptions } from './watch.js';
import { retryDelay, type RetryOptions } from './retry-policy.js';
import { sleep } from './sleep.js';
import { acceptOf, decodeBody, encodeBody, type Encoding } from './codec.js';
import { serverFlavour } from './server-flavour.js';

/** Options of a get. */
export interface GetOptions {
  readonly resourceVersion?: string;
  readonly subresource?: string;
}

/** Options of a list (and of deletecollection's selection). */
export interface ListOptions {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  readonly limit?: number;
  readonly continue?: string;
  readonly resourceVersion?: string;
  readonly resourceVersionMatch?: 'Exact' | 'NotOlderThan';
  readonly timeoutSeconds?: number;
}

/** Options of a write (create, update, patch). */
export interface WriteOptions {
  readonly dryRun?: boolean;
  readonly fieldManager?: string;
  readonly fieldValidation?: 'Ignore' | 'Warn' | 'Strict';
  /** `status`, `finalize`, ...: writes the subresource instead of the object. */
  readonly subresource?: string;
  /**
   * The parent object of a subresource create (`eviction`, `binding`, `token`), when the body's own name is not it
   * (a TokenRequest is named by nothing); the body's name otherwise.
   */
  readonly name?: string;
}

/** Options of a delete, sent as a DeleteOptions body. */
export interface DeleteOptions {
  readonly gracePeriodSeconds?: number;
  readonly propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  readonly preconditions?: { readonly uid?: string; readonly resourceVersion?: string };
  readonly dryRun?: boolean;
}

/** Patch flavours and their media types. */
export const patchContentTypes = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

/** A patch flavour. */
export type PatchType = keyof typeof patchContentTypes;

/** Options of a patch. */
export interface PatchOptions extends WriteOptions {
  /** Server-side apply: take ownership of conflicting fields. */
  readonly force?: boolean;
}

/** Options of a server-side apply. */
export interface ApplyOptions {
  /** Required by the server for apply. */
  readonly fieldManager: string;
  /** Take ownership of fields other managers own instead of failing with a conflict. */
  readonly force?: boolean;
  readonly dryRun?: boolean;
  readonly fieldValidation?: 'Ignore' | 'Warn' | 'Strict';
  readonly subresource?: string;
}

/** Options of a client. */
export interface ClientOptions extends TransportOptions {
  /** Receives each `Warning` header the server sends (kubectl prints them as `Warning: ...`). */
  readonly onWarning?: (text: string) => void;
  /** Retries of throttled (429), failing (5xx) and unanswered requests. */
  readonly retry?: RetryOptions;
  /**
   * How request and response bodies travel. Default `json`. With `protobuf`, built-in objects travel in the binary
   * encoding of the server's flavour (read once from its groups unless `flavour` pins it), anything else in JSON.
   */
  readonly encoding?: Encoding;
  /** The flavour of names the server speaks, when known; otherwise read from its groups when a caller needs it. */
  readonly flavour?: Flavour;
}

/** A REST client bound to one server. */
export interface RestClient {
  readonly config: ConnectionConfig;
  /** The `flavour` option: the server's flavour of names, when the caller pinned it (see `serverFlavour`). */
  readonly flavour: Flavour | undefined;
  /** Any request; the response is returned whatever its status. */
  raw(req: HttpRequest): Promise<Result<HttpResponse>>;
  /** Any request whose 2xx JSON body is the value; other statuses become the Status failure. */
  request<T = unknown>(req: HttpRequest): Promise<Result<T>>;
  get<T extends KubeObject = KubeObject>(ref: ResourceRef, name: string, options?: GetOptions): Promise<Result<T>>;
  list<T extends KubeObject = KubeObject>(ref: ResourceRef, options?: ListOptions): Promise<Result<KubeList<T>>>;
  create<T extends KubeObject = KubeObject>(ref: ResourceRef, object: T, options?: WriteOptions): Promise<Result<T>>;
  update<T extends KubeObject = KubeObject>(ref: ResourceRef, object: T, options?: WriteOptions): Promise<Result<T>>;
  patch<T extends KubeObject = KubeObject>(ref: ResourceRef, name: string, type: PatchType, patch: unknown, options?: PatchOptions): Promise<Result<T>>;
  /** Server-side apply of a (partial) object: the fields it sets become `fieldManager`'s. */
  apply<T extends KubeObject = KubeObject>(ref: ResourceRef, object: T, options: ApplyOptions): Promise<Result<T>>;
  /** The pages of a list, `limit` objects each (default 500), all from one snapshot; an expired continue token ends it with the 410. */
  listPages<T extends KubeObject = KubeObject>(ref: ResourceRef, options?: ListOptions): AsyncGenerator<Result<KubeList<T>>>;
  /** Every object of a list, in pages of `limit` when set; when a continue token expires, one full list instead (client-go's pager). */
  listAll<T extends KubeObject = KubeObject>(ref: ResourceRef, options?: ListOptions): Promise<Result<KubeList<T>>>;
  /** The deleted object (or the object now being deleted), or a success Status when the server sends one. */
  delete(ref: ResourceRef, name: string, options?: DeleteOptions): Promise<Result<KubeObject | Status>>;
  deleteCollection(ref: ResourceRef, options?: ListOptions & DeleteOptions): Promise<Result<KubeObject | Status>>;
  /** A watch stream that resumes from the last seen resourceVersion when the connection drops. */
  watch<T extends KubeObject = KubeObject>(ref: ResourceRef, options?: WatchOptions): WatchHandle<T>;
  close(): void;
}

function writeQuery(options: WriteOptions | undefined): Record<string, string | undefined> {
  return {
    dryRun: options?.dryRun ? 'All' : undefined,
    fieldManager: options?.fieldManager,
    fieldValidation: options?.fieldValidation,
  };
}

function listQuery(options: ListOptions | undefined): Record<string, string | number | undefined> {
  return {
    labelSelector: options?.labelSelector,
    fieldSelector: options?.fieldSelector,
    limit: options?.limit,
    continue: options?.continue,
    resourceVersion: options?.resourceVersion,
    resourceVersionMatch: options?.resourceVersionMatch,
    timeoutSeconds: options?.timeoutSeconds,
  };
}

function deleteBody(options: DeleteOptions | undefined): string | undefined {
  if (!options) return undefined;
  const body: Record<string, unknown> = { kind: 'DeleteOptions', apiVersion: 'v1' };
  if (options.gracePeriodSeconds !== undefined) body.gracePeriodSeconds = options.gracePeriodSeconds;
  if (options.propagationPolicy !== undefined) body.propagationPolicy = options.propagationPolicy;
  if (options.preconditions !== undefined) body.preconditions = options.preconditions;
  if (options.dryRun) body.dryRun = ['All'];
  return Object.keys(body).length > 2 ? JSON.stringify(body) : undefined;
}

/** The ref with the object's namespace filled in when the ref names none. */
function refFor(ref: ResourceRef, object: KubeObject): ResourceRef {
  const ns = object.metadata?.namespace;
  return ref.namespace === undefined && ns ? { ...ref, namespace: ns } : ref;
}

/** Makes a client from a connection config (see `loadKubeconfig`). */
export function createClient(config: ConnectionConfig, options: ClientOptions = {}): RestClient {
  const transport: Transport = createTransport(config, options);
  const encoding = options.encoding ?? 'json';
  /** The server's flavour where the encoding depends on it (protobuf's media type and message names). */
  const flavourOf = (): Promise<Result<Flavour>> => (encoding === 'protobuf' ? serverFlavour(client) : Promise.resolve(ok('svc')));
  /** The `Accept` header of a request whose answer is an object or a list. */
  const accept = async (): Promise<Result<{ accept: string }>> => {
    const flavour = await flavourOf();
    return flavour.ok ? ok({ accept: acceptOf(encoding, flavour.value) }) : flavour;
  };
  /** Sends an object (create, update): in the encoding, or JSON where the encoding has no form for it. */
  const send = async <T>(method: string, path: string, object: unknown): Promise<Result<T>> => {
    const flavour = await flavourOf();
    if (!flavour.ok) return flavour;
    const { body, contentType } = encodeBody(object, encoding, flavour.value);
    return request<T>({ method, path, headers: { accept: acceptOf(encoding, flavour.value), 'content-type': contentType }, body });
  };
  /** A request answered by an object or list in the encoding, with `content-type` added when it has a body. */
  const call = async <T>(req: Omit<HttpRequest, 'headers'> & { readonly contentType?: string }): Promise<Result<T>> => {
    const headers = await accept();
    if (!headers.ok) return headers;
    const { contentType, ...rest } = req;
    return request<T>({ ...rest, headers: contentType === undefined ? headers.value : { ...headers.value, 'content-type': contentType } });
  };

  async function raw(req: HttpRequest): Promise<Result<HttpResponse>> {
    for (let attempt = 1; ; attempt++) {
      const res = await transport.send(req);
      if (res.ok && options.onWarning) reportWarnings(res.value.headers.warning, options.onWarning);
      if (req.signal?.aborted) return res;
      const retryAfter = res.ok ? res.value.headers['retry-after'] : undefined;
      const delay = retryDelay({ method: req.method, status: res.ok ? res.value.status : 0, retryAfter }, attempt, options.retry);
      if (delay === undefined) return res;
      await sleep(delay, req.signal);
    }
  }

  async function request<T>(req: HttpRequest): Promise<Result<T>> {
    const res = await raw(req);
    if (!res.ok) return res;
    const { status, body, headers } = res.value;
    if (status < 200 || status > 299) return fail(statusFromResponse(status, body, headers['content-type']));
    const decoded = decodeBody(body, headers['content-type']);
    return decoded.ok ? ok(decoded.value as T) : fail(transportFailure(decoded.error));
  }

  async function* listPages<T extends KubeObject>(ref: ResourceRef, o: ListOptions = {}): AsyncGenerator<Result<KubeList<T>>> {
    let cont = o.continue;
    const limit = o.limit ?? 500;
    for (;;) {
      const page = await client.list<T>(ref, { ...o, limit, ...(cont === undefined ? {} : { continue: cont }) });
      yield page;
      if (!page.ok) return;
      cont = page.value.metadata.continue;
      if (!cont) return;
    }
  }

  const client: RestClient = {
    config,
    flavour: options.flavour,
    raw,
    request,
    get(ref, name, o) {
      return call({ method: 'GET', path: withQuery(resourcePath(ref, name, o?.subresource), { resourceVersion: o?.resourceVersion }) });
    },
    list(ref, o) {
      return call({ method: 'GET', path: withQuery(resourcePath(ref), listQuery(o)) });
    },
    listPages,
    async listAll<T extends KubeObject>(ref: ResourceRef, o?: ListOptions): Promise<Result<KubeList<T>>> {
      if (o?.limit === undefined) return client.list<T>(ref, o);
      let first: KubeList<T> | undefined;
      const items: T[] = [];
      for await (const page of listPages<T>(ref, o)) {
        if (!page.ok && page.error.code === 410 && first !== undefined) {
          // the snapshot behind the continue token was compacted: one full list replaces the pages read so far
          const { limit: _limit, continue: _continue, ...rest } = o ?? {};
          return client.list<T>(ref, rest);
        }
        if (!page.ok) return page;
        first ??= page.value;
        items.push(...page.value.items);
      }
      if (first === undefined) return fail(transportFailure('the list returned no page'));
      const { continue: _done, remainingItemCount: _left, ...metadata } = first.metadata as KubeList<T>['metadata'] & { remainingItemCount?: number };
      return ok({ ...first, metadata, items });
    },
    create(ref, object, o) {
      const r = refFor(ref, object);
      const path = o?.subresource !== undefined
        ? resourcePath(r, o.name ?? object.metadata?.name ?? '', o.subresource)
        : resourcePath(r);
      return send('POST', withQuery(path, writeQuery(o)), object);
    },
    update(ref, object, o) {
      const r = refFor(ref, object);
      return send('PUT', withQuery(resourcePath(r, object.metadata?.name ?? '', o?.subresource), writeQuery(o)), object);
    },
    patch(ref, name, type, patch, o) {
      const body = typeof patch === 'string' ? patch : JSON.stringify(patch);
      return call({
        method: 'PATCH',
        path: withQuery(resourcePath(ref, name, o?.subresource), { ...writeQuery(o), force: o?.force === undefined ? undefined : String(o.force) }),
        contentType: patchContentTypes[type],
        body,
      });
    },
    apply(ref, object, o) {
      return client.patch(refFor(ref, object), object.metadata?.name ?? '', 'apply', object, o);
    },
    delete(ref, name, o) {
      const body = deleteBody(o);
      return call({ method: 'DELETE', path: resourcePath(ref, name), ...(body === undefined ? {} : { body, contentType: 'application/json' }) });
    },
    deleteCollection(ref, o) {
      const body = deleteBody(o);
      return call({ method: 'DELETE', path: withQuery(resourcePath(ref), listQuery(o)), ...(body === undefined ? {} : { body, contentType: 'application/json' }) });
    },
    watch(ref, o) {
      return watchResource(transport, ref, o, async () => {
        const headers = await accept();
        return headers.ok ? ok(headers.value.accept) : headers;
      });
    },
    close() {
      transport.close();
    },
  };
  return client;
}


/** Splits `Warning: 299 - "text"` header values (possibly several, comma-joined) into their texts. */
export function parseWarnings(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  const values = Array.isArray(header) ? header : [header];
  const out: string[] = [];
  const re = /\d{3} [^ ]+ "((?:[^"\\]|\\.)*)"/g;
  for (const v of values) {
    for (const m of v.matchAll(re)) out.push((m[1] ?? '').replace(/\\(.)/g, '$1'));
  }
  return out;
}

function reportWarnings(header: string | string[] | undefined, onWarning: (text: string) => void): void {
  for (const w of parseWarnings(header)) onWarning(w);
}
