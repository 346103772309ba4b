/**
 * The etcd Backend: the store every Kubernetes control plane uses, reached through the `etcd3` client's raw gRPC
 * clients (KV and Watch), so that this backend controls every request field as kube-apiserver's etcd3 store does.
 * Reads and writes run on a thread of their own (kv-thread.ts), so their gRPC cost is not paid on the thread that
 * serves HTTP; watches and compaction use a client on the main thread.
 *
 * Revisions are etcd's own: an object's resourceVersion is the key's mod revision. Writes are single transactions
 * guarded by the create or mod revision, whose failure branch reads the current value, so a conflict costs one round
 * trip. Reads at a revision are etcd range requests at that revision (snapshot pagination comes free).
 *
 * etcd reports a read below the compacted revision without saying what that revision is; a watch from a compacted
 * revision does say it, so the backend asks a short-lived watch when it needs the number (see
 * {@link probeCompactRevision}). Watches use the raw watch stream, one gRPC stream per watch, because the
 * library's high-level watcher retries on its own and hides `compact_revision`.
 */
import { Etcd3 } from 'etcd3';
import type { IDuplexStream, IEvent, IKeyValue, IWatchRequest, IWatchResponse } from 'etcd3';
import type {
  Backend,
  BackendEvent,
  BackendResult,
  BackendWatch,
  KeyValue,
  ListResult,
  WatchListener,
} from '../backend.js';
import { unavailable } from '../unavailable.js';
import { etcdClientOptions, type EtcdTlsOptions } from './etcd-client-options.js';
import { orderedProgressNotifications } from './etcd-progress-support.js';
import { startKvThread } from './kv-thread.js';

export type { EtcdTlsOptions } from './etcd-client-options.js';

/** Options of {@link openEtcdBackend}. */
export interface EtcdBackendOptions {
  /** Client URLs of the etcd members (`--etcd-servers`), `http://` or `https://`. */
  readonly endpoints: readonly string[];
  /**
   * Prepended to every key inside etcd (default `''`: keys already start with `/registry/`). Lets several servers,
   * or tests, share one etcd cluster without seeing each other's keys.
   */
  readonly prefix?: string;
  /**
   * A root every key given to the backend starts with, replaced by `prefix` inside etcd (kube-apiserver's
   * `--etcd-prefix`: keys `/registry/<resource>/...` live at `<prefix>/<resource>/...`). Absent: `prefix` is only
   * prepended.
   */
  readonly replaceRoot?: string;
  readonly tls?: EtcdTlsOptions;
  /** Deadline of each unary request (default 15 s); a request past it fails with `Unavailable`. */
  readonly requestTimeoutMs?: number;
}

/** etcd's error texts (mvcc package) for a read outside the kept history. */
const compactedText = 'required revision has been compacted';
const futureText = 'required revision is a future revision';

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));
const isCompactedError = (error: unknown): boolean => errorText(error).includes(compactedText);
const isFutureError = (error: unknown): boolean => errorText(error).includes(futureText);

/** How long to wait for etcd to name its compacted revision on a probe watch (it answers within ~100 ms). */
const probeTimeoutMs = 3000;

/**
 * The end of the etcd range holding every key that starts with `prefix`, as etcd's clientv3 `GetPrefix` computes it
 * on bytes: the prefix with its last byte below 0xff incremented; `\0` (no end: every key) when there is none.
 */
function rangeEnd(prefix: Buffer): Buffer {
  const end = Buffer.from(prefix);
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i]! < 0xff) {
      end[i] = end[i]! + 1;
      return end.subarray(0, i + 1);
    }
  }
  return Buffer.from([0]);
}

/** A key-value as etcd returns it: bytes as Buffers from the main thread's client, as UTF-8 strings from the KV thread. */
interface RawKv {
  readonly key: Buffer | string;
  readonly value: Buffer | string;
  readonly create_revision: string;
  readonly mod_revision: string;
}

/** The parts of etcd's KV responses the backend reads (as the KV thread returns them). */
interface ResponseHeader {
  readonly revision: string;
}
interface RangeResponse {
  readonly header: ResponseHeader;
  readonly kvs: RawKv[];
  readonly more: boolean;
  readonly count: string;
}
interface TxnResponse {
  readonly header: ResponseHeader;
  readonly succeeded: boolean;
  readonly responses: {
    readonly response_range?: RangeResponse | null;
    readonly response_put?: { readonly prev_kv?: RawKv | null } | null;
    readonly response_delete_range?: { readonly prev_kvs: RawKv[] } | null;
  }[];
}
/** A key or key range of a KV request: text (UTF-8), or bytes for a range end that need not be text. */
type KeyBytes = string | Uint8Array;
interface RangeRequest {
  readonly key: KeyBytes;
  readonly range_end?: KeyBytes;
  readonly limit?: number;
  readonly count_only?: boolean;
}
interface Compare {
  readonly key: KeyBytes;
  readonly target: 'Create' | 'Mod' | 'Version';
  readonly result: 'Equal' | 'Greater';
  readonly create_revision?: number;
  readonly mod_revision?: number;
  readonly version?: number;
}
type RequestOp =
  | { readonly request_put: { readonly key: KeyBytes; readonly value: string; readonly prev_kv?: boolean } }
  | { readonly request_range: RangeRequest }
  | { readonly request_delete_range: { readonly key: KeyBytes; readonly prev_kv?: boolean } };

/** The etcd Backend, with the client for what only etcd has (the guarded compaction of several replicas). */
export interface EtcdBackend extends Backend {
  readonly client: Etcd3;
}

/** Opens a Backend on an etcd cluster. Connecting is lazy: a first request fails with `Unavailable` if etcd is down. */
export function openEtcdBackend(options: EtcdBackendOptions): EtcdBackend {
  if (options.endpoints.length === 0) throw new Error('openEtcdBackend: no etcd endpoints');
  const prefixText = options.prefix ?? '';
  const keyPrefix = Buffer.from(prefixText, 'utf8');
  const settings = {
    endpoints: [...options.endpoints],
    ...(options.tls === undefined ? {} : { tls: options.tls }),
    requestTimeoutMs: options.requestTimeoutMs ?? 15_000,
  };
  const client = new Etcd3(etcdClientOptions(settings));
  const kvThread = startKvThread(settings);
  const watchClient = client.watchClient;

  let closed = false;
  /** The highest compacted revision etcd has told us about (compaction, a compacted watch or a probe). */
  let compacted = 0;
  const inflight = new Set<Promise<unknown>>();
  const watches = new Set<{ fail(error: Parameters<WatchListener['onError']>[0]): void }>();

  /**
   * Whether etcd's progress notifications are ordered with events (its version, asked once it answers): until it is
   * known to be, watches report no progress, as a report that overtakes events would claim revisions not delivered.
   */
  let progressTrusted = false;
  let progressChecked: Promise<void> | undefined;
  const checkProgressSupport = (): void => {
    progressChecked ??= client.maintenance.status().then(
      (s) => {
        progressTrusted = orderedProgressNotifications(s.version);
      },
      () => {
        // etcd unreachable: ask again next time.
        progressChecked = undefined;
      },
    );
  };

  checkProgressSupport();

  const closedError = () => unavailable(undefined, 'the store is closed');
  const ensureOpen = (): void => {
    if (closed) throw closedError();
  };

  const root = options.replaceRoot ?? '';
  /** The key inside etcd, as text (every key the backend is given is text). */
  const encodeText = (key: string): string =>
    prefixText + (root !== '' && key.startsWith(root) ? key.slice(root.length) : key);
  const encode = (key: string): Buffer => Buffer.from(encodeText(key), 'utf8');
  const decodeKey = (key: Buffer | string): string =>
    root + (typeof key === 'string' ? key.slice(prefixText.length) : key.subarray(keyPrefix.length).toString('utf8'));
  const toKv = (raw: RawKv | IKeyValue): KeyValue => ({
    key: decodeKey(raw.key),
    value: typeof raw.value === 'string' ? raw.value : raw.value.toString('utf8'),
    createRevision: Number(raw.create_revision),
    modRevision: Number(raw.mod_revision),
  });
  /** A key nothing is written to, for requests that only want the response header or a compaction answer. */
  const probeKeyText = encodeText('\u0000revision-probe');
  const probeKey = Buffer.from(probeKeyText, 'utf8');
  /** The range end of a prefix, as bytes of their own (a pooled Buffer would cross to the KV thread whole). */
  const rangeEndOf = (prefix: Buffer): Uint8Array => new Uint8Array(rangeEnd(prefix));

  /** Runs one request; any failure of the store (down, timed out, closed) becomes an `Unavailable` rejection. */
  const request = async <T>(run: () => Promise<T>, keep?: (error: unknown) => boolean): Promise<T> => {
    ensureOpen();
    const pending = run();
    inflight.add(pending);
    try {
      return await pending;
    } catch (error) {
      if (keep?.(error) === true) throw error;
      throw unavailable(error);
    } finally {
      inflight.delete(pending);
    }
  };
  const range = (req: RangeRequest & { readonly revision?: number }): Promise<RangeResponse> =>
    kvThread.call<RangeResponse>('range', req);
  const txn = (compare: Compare[], success: RequestOp[], failure: RequestOp[]): Promise<TxnResponse> =>
    request(() => kvThread.call<TxnResponse>('txn', { compare, success, failure }));

  /**
   * The store's current revision. Callers in the same turn of the event loop share one read, sent after the last
   * of them asked: the revision is still read after every caller's own request began, which is what a consistent
   * read needs of it, and a burst of consistent reads costs etcd one range instead of one each.
   */
  let revisionRead: Promise<number> | undefined;
  const currentRevision = (): Promise<number> => {
    if (closed) return Promise.reject(closedError());
    revisionRead ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      revisionRead = undefined;
      const r = await request(() => range({ key: probeKeyText, count_only: true }));
      return Number(r.header.revision);
    });
    return revisionRead;
  };

  /**
   * Asks etcd for its compacted revision, known to be above `below`: a watch from `below` is refused with the
   * compacted revision (etcd's watch answers with `compact_revision`, which a range error does not carry).
   */
  const probeCompactRevision = async (below: number): Promise<number> => {
    const stream = await request(() => watchClient.watch());
    const found = await new Promise<number | undefined>((resolve) => {
      let done = false;
      const finish = (value: number | undefined): void => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        stream.cancel();
        resolve(value);
      };
      const timer = setTimeout(() => finish(undefined), probeTimeoutMs);
      stream.on('data', (r: IWatchResponse) => {
        const rev = Number(r.compact_revision);
        if (rev > 0) finish(rev);
        else if (r.events.length > 0 || r.canceled) finish(undefined);
      });
      stream.on('error', () => finish(undefined));
      stream.on('end', () => finish(undefined));
      stream.write({ create_request: { key: probeKey, start_revision: Math.max(below, 1) } });
    });
    // No answer means etcd's history moved between the two requests; below + 1 is then the safe lower bound.
    compacted = Math.max(compacted, found ?? below + 1);
    return compacted;
  };

  /** A range at `revision` (0: current), with etcd's revision errors as values. */
  const rangeAt = async (
    req: RangeRequest,
    revision: number,
  ): Promise<BackendResult<RangeResponse, 'Compacted' | 'FutureRevision'>> => {
    try {
      const value = await request(
        () => range({ ...req, revision }),
        (e) => isCompactedError(e) || isFutureError(e),
      );
      return { ok: true, value };
    } catch (error) {
      if (isCompactedError(error)) {
        return { ok: false, error: { code: 'Compacted', compactRevision: await probeCompactRevision(revision) } };
      }
      // Only etcd's own "future revision" answer is one; a lost member is `Unavailable`, as `request` made it.
      if (!isFutureError(error)) throw error;
      return { ok: false, error: { code: 'FutureRevision', currentRevision: await currentRevision() } };
    }
  };

  const firstRange = (r: TxnResponse): RawKv | undefined => r.responses[0]?.response_range?.kvs[0];

  const backend: EtcdBackend = {
    name: 'etcd',
    client,

    currentRevision,

    async compactRevision() {
      ensureOpen();
      // Cheap check first: if history at the last known compacted revision is still readable, it is current.
      const at = Math.max(compacted, 1);
      const r = await rangeAt({ key: probeKeyText, count_only: true }, at);
      if (!r.ok && r.error.code === 'Compacted') return r.error.compactRevision;
      return compacted;
    },

    async get(key, readOptions) {
      const revision = readOptions?.revision ?? 0;
      const r = await rangeAt({ key: encodeText(key) }, revision);
      if (!r.ok) return r;
      const raw = r.value.kvs[0];
      const at = revision === 0 ? Number(r.value.header.revision) : revision;
      return { ok: true, value: raw === undefined ? { revision: at } : { revision: at, kv: toKv(raw) } };
    },

    async list(prefix, listOptions) {
      const revision = listOptions?.revision ?? 0;
      const from = encode(prefix);
      const start =
        listOptions?.startKey !== undefined && Buffer.compare(encode(listOptions.startKey), from) > 0
          ? encodeText(listOptions.startKey)
          : encodeText(prefix);
      const r = await rangeAt({ key: start, range_end: rangeEndOf(from), limit: listOptions?.limit ?? 0 }, revision);
      if (!r.ok) return r;
      const result: ListResult = {
        revision: revision === 0 ? Number(r.value.header.revision) : revision,
        kvs: r.value.kvs.map(toKv),
        more: r.value.more,
      };
      return { ok: true, value: result };
    },

    async count(prefix) {
      const r = await request(() => range({ key: encodeText(prefix), range_end: rangeEndOf(encode(prefix)), count_only: true }));
      return { revision: Number(r.header.revision), count: Number(r.count) };
    },

    async create(key, value) {
      const k = encodeText(key);
      const r = await txn(
        [{ key: k, target: 'Create', result: 'Equal', create_revision: 0 }],
        [{ request_put: { key: k, value } }],
        [{ request_range: { key: k } }],
      );
      if (r.succeeded) {
        const revision = Number(r.header.revision);
        return { ok: true, value: { key, value, createRevision: revision, modRevision: revision } };
      }
      const current = firstRange(r);
      if (current === undefined) throw new Error(`etcd create of ${key}: compare failed but the key is absent`);
      return { ok: false, error: { code: 'KeyExists', current: toKv(current) } };
    },

    async update(key, value, expectedModRevision) {
      const k = encodeText(key);
      const r = await txn(
        [
          { key: k, target: 'Mod', result: 'Equal', mod_revision: expectedModRevision },
          { key: k, target: 'Version', result: 'Greater', version: 0 },
        ],
        [{ request_put: { key: k, value, prev_kv: true } }],
        [{ request_range: { key: k } }],
      );
      if (r.succeeded) {
        const prev = r.responses[0]?.response_put?.prev_kv;
        const createRevision = Number(prev?.create_revision ?? r.header.revision);
        return { ok: true, value: { key, value, createRevision, modRevision: Number(r.header.revision) } };
      }
      const current = firstRange(r);
      return current === undefined
        ? { ok: false, error: { code: 'NotFound' } }
        : { ok: false, error: { code: 'Conflict', current: toKv(current) } };
    },

    async delete(key, expectedModRevision) {
      const k = encodeText(key);
      const compare: Compare[] = [{ key: k, target: 'Version', result: 'Greater', version: 0 }];
      if (expectedModRevision !== undefined) {
        compare.push({ key: k, target: 'Mod', result: 'Equal', mod_revision: expectedModRevision });
      }
      const r = await txn(compare, [{ request_delete_range: { key: k, prev_kv: true } }], [{ request_range: { key: k } }]);
      if (r.succeeded) {
        const prev = r.responses[0]?.response_delete_range?.prev_kvs[0];
        if (prev === undefined) throw new Error(`etcd delete of ${key}: no previous value returned`);
        return { ok: true, value: { ...toKv(prev), modRevision: Number(r.header.revision) } };
      }
      const current = firstRange(r);
      return current === undefined
        ? { ok: false, error: { code: 'NotFound' } }
        : { ok: false, error: { code: 'Conflict', current: toKv(current) } };
    },

    watch(prefix, afterRevision, listener) {
      ensureOpen();
      let active = true;
      let stream: IDuplexStream<IWatchRequest, IWatchResponse> | undefined;
      /** The last revision handed to the listener: etcd never repeats one on a stream, this makes sure of it. */
      let delivered = afterRevision;

      const stop = (): void => {
        active = false;
        watches.delete(entry);
        stream?.cancel();
      };
      const fail = (error: Parameters<WatchListener['onError']>[0]): void => {
        if (!active) return;
        stop();
        listener.onError(error);
      };
      const entry = { fail };
      watches.add(entry);

      const toEvent = (e: IEvent): BackendEvent => {
        const prev = e.prev_kv != null && e.prev_kv.key.length > 0 ? toKv(e.prev_kv) : undefined;
        if (e.type === 'Delete') {
          // etcd's delete event carries only the key and the delete revision; the deleted value is the prevKv.
          const kvOf: KeyValue = {
            key: decodeKey(e.kv.key),
            value: prev?.value ?? '',
            createRevision: prev?.createRevision ?? 0,
            modRevision: Number(e.kv.mod_revision),
          };
          return prev === undefined ? { type: 'delete', kv: kvOf } : { type: 'delete', kv: kvOf, prevKv: prev };
        }
        return prev === undefined ? { type: 'put', kv: toKv(e.kv) } : { type: 'put', kv: toKv(e.kv), prevKv: prev };
      };

      const onResponse = (r: IWatchResponse): void => {
        if (!active) return;
        if (r.events.length === 0 && !r.created && !r.canceled && Number(r.compact_revision) === 0) {
          // A progress notification: every event of this watch up to the header's revision has been sent.
          if (!progressTrusted) return;
          const revision = Number(r.header.revision);
          if (revision > delivered) delivered = revision;
          listener.onProgress?.(delivered);
          return;
        }
        const compactRevision = Number(r.compact_revision);
        if (compactRevision > 0) {
          compacted = Math.max(compacted, compactRevision);
          fail({ code: 'Compacted', compactRevision });
          return;
        }
        // One etcd response may hold several revisions; the listener gets one batch per committed revision.
        let batch: BackendEvent[] = [];
        let batchRevision = 0;
        for (const raw of r.events) {
          const event = toEvent(raw);
          const revision = event.kv.modRevision;
          if (revision <= delivered) continue;
          if (revision !== batchRevision && batch.length > 0) {
            listener.onEvents(batch);
            if (!active) return;
            delivered = batchRevision;
            batch = [];
          }
          batchRevision = revision;
          batch.push(event);
        }
        if (batch.length > 0) {
          delivered = batchRevision;
          listener.onEvents(batch);
          if (!active) return;
        }
        if (r.canceled) fail({ code: 'Unavailable', message: `etcd canceled the watch: ${r.cancel_reason}` });
      };

      void (async () => {
        let s: IDuplexStream<IWatchRequest, IWatchResponse>;
        try {
          s = await watchClient.watch();
        } catch (error) {
          fail({ code: 'Unavailable', message: unavailable(error).message });
          return;
        }
        stream = s;
        // Listeners go on before the cancel check: a cancelled stream still emits its `error`.
        s.on('error', (error) => fail({ code: 'Unavailable', message: unavailable(error).message }));
        s.on('end', () => fail({ code: 'Unavailable', message: 'storage unavailable: the etcd watch stream ended' }));
        s.on('data', onResponse);
        if (!active) {
          s.cancel();
          return;
        }
        const key = encode(prefix);
        s.write({
          create_request: { key, range_end: rangeEnd(key), start_revision: afterRevision + 1, prev_kv: true },
        });
      })();

      const handle: BackendWatch = {
        cancel() {
          if (active) stop();
        },
        requestProgress() {
          checkProgressSupport();
          if (!progressTrusted || !active || stream === undefined) return;
          try {
            stream.write({ progress_request: {} });
          } catch {
            // The stream is failing; its error event ends the watch.
          }
        },
      };
      return handle;
    },

    reportsProgress() {
      checkProgressSupport();
      return progressTrusted;
    },

    async compact(revision) {
      const to = Math.min(revision, await currentRevision());
      if (to <= compacted) return;
      try {
        await request(() => client.kv.compact({ revision: to, physical: false }), isCompactedError);
      } catch (error) {
        // Already compacted at or past `to` (by another server on the same etcd): nothing to do.
        if (isCompactedError(error)) return;
        throw error;
      }
      compacted = Math.max(compacted, to);
    },

    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([...inflight]);
      const open = [...watches];
      queueMicrotask(() => {
        for (const w of open) w.fail({ code: 'Unavailable', message: 'storage unavailable: the store is closed' });
      });
      // Watches end before the client closes, so their streams' errors find them inactive.
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      client.close();
      await kvThread.close();
    },
  };
  return backend;
}
