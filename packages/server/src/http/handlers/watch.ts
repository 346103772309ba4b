/**
 * watch (GET with `watch=1` on a collection, or on one object via its name or `fieldSelector=metadata.name=x`),
 * as kube-apiserver's endpoints/handlers/watch.go serves it: a chunked stream of `{"type","object"}` lines.
 * Synthetic ADDED events for the current state when `resourceVersion` is unset or `0` (and with WatchList's
 * `sendInitialEvents=true`, then a BOOKMARK annotated initial-events-end), then every change after it; selectors
 * apply (an object leaving them is DELETED, entering is ADDED); BOOKMARKs with `allowWatchBookmarks`, periodic and
 * just before the timeout; an expired resourceVersion ends the stream with an ERROR event carrying a 410 Status.
 *
 * Events arrive already serialized (once per event, shared by every watcher). A client that reads slower than
 * events come gets a backlog; past its limit (a number of events and of bytes, as kube's cacher drops a watcher whose
 * buffer stays full) its watch ends with a 410 ERROR so it lists again, and nobody else waits for it. Ends on
 * `timeoutSeconds` (default: --min-request-timeout × a random factor in [1, 2), as kube spreads watch
 * reconnections), on client disconnect or shutdown. A client that has not taken the end of its watch soon after is
 * not reading at all: its response is dropped, so neither the connection nor what waits in it for the client stays.
 */
import { badRequest, type Status } from '@svc-apiserver/api';
import type { RequestContext, WatchStream } from '../context.js';
import type { Registry } from '../../registry/registry.js';
import type { ResourceDef } from '../../registry/resource-def.js';
import { parseSelection } from '../../registry/selection.js';
import { parseListQuery, requestNamespace } from './request-options.js';
import { startWatch, writeStatus } from '../response-writer.js';
import { endpointMetrics } from '../../metrics/endpoint-metrics.js';
import { storedResourceLabel, watchCacheMetrics } from '../../registry/storage-metrics.js';

const encoder = new TextEncoder();

/** The ERROR line of a failure. */
function errorFrame(status: Status): Uint8Array {
  return encoder.encode(`${JSON.stringify({ type: 'ERROR', object: status })}\n`);
}

/** Serves a watch; resolves when the stream has ended. */
export async function handleWatch(ctx: RequestContext, registry: Registry, def: ResourceDef): Promise<void> {
  const q = ctx.query;
  let fieldSelector = q.get('fieldSelector') ?? '';
  const name = ctx.info.name;
  if (name !== '' && !fieldSelector.split(',').includes(`metadata.name=${name}`)) {
    fieldSelector = fieldSelector ? `${fieldSelector},metadata.name=${name}` : `metadata.name=${name}`;
  }
  const selection = parseSelection(def, q.get('labelSelector'), fieldSelector);
  if (!selection.ok) return writeStatus(ctx, selection.error);
  const listOptions = parseListQuery(q);
  if (!listOptions.ok) return writeStatus(ctx, listOptions.error);
  const timeoutSeconds = listOptions.value.timeoutSeconds ?? 0;
  const { sendInitialEvents, allowWatchBookmarks } = listOptions.value;
  const settings = registry.store.settings;

  let stream: WatchStream | undefined;
  /** Frames made before the stream started (the initial state), so a failed start can still answer a Status. */
  const pending: Uint8Array[] = [];
  /** Live frames the client has not taken yet. */
  let backlog: Uint8Array[] = [];
  let backlogHead = 0;
  let backlogBytes = 0;
  let blocked = false;
  let done = false;
  let finish: () => void = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = () => {
      done = true;
      resolve();
    };
  });

  const flush = (): void => {
    blocked = false;
    if (stream === undefined || done) return;
    while (backlogHead < backlog.length) {
      const frame = backlog[backlogHead++]!;
      backlogBytes -= frame.byteLength;
      const more = stream.write(frame);
      if (!more) {
        blocked = true;
        void stream.drain().then(flush);
        return;
      }
    }
    backlog = [];
    backlogHead = 0;
    backlogBytes = 0;
  };
  const fail = (status: Status): void => {
    if (done) return;
    if (stream === undefined) pending.push(errorFrame(status));
    else stream.write(errorFrame(status));
    finish();
  };
  const write = (bytes: Uint8Array, live: boolean): void => {
    if (done) return;
    if (stream === undefined) {
      pending.push(bytes);
      return;
    }
    if (stream.closed) return finish();
    if (blocked) {
      backlog.push(bytes);
      backlogBytes += bytes.byteLength;
      if (live && (backlog.length - backlogHead > settings.maxWatchBacklog || backlogBytes > settings.maxWatchBacklogBytes)) {
        // This client cannot keep up: drop what it has not taken and tell it to list again.
        watchCacheMetrics().terminatedWatchers.inc({ resource: storedResourceLabel(def) });
        backlog = [];
        backlogHead = 0;
        backlogBytes = 0;
        fail({
          kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 410, reason: 'Expired',
          message: 'the watch fell too far behind the events of its resource; list again and watch from the new resourceVersion',
        });
      }
      return;
    }
    if (!stream.write(bytes)) {
      blocked = true;
      void stream.drain().then(flush);
    }
  };

  // apiserver_watch_events_total and _sizes, by the watched kind (kube's watch handler counts every event it sends).
  const { watchEvents, watchEventSizes } = endpointMetrics();
  const kind = { group: def.group, version: def.version, kind: def.kind };
  const sent = (bytes: Uint8Array, live: boolean): void => {
    watchEvents.inc(kind);
    watchEventSizes.observe(kind, bytes.byteLength);
    write(bytes, live);
  };
  const started = await registry.store.watch(def, {
    namespace: requestNamespace(ctx, def),
    selection: selection.value,
    ...(q.get('resourceVersion') !== null ? { resourceVersion: q.get('resourceVersion')! } : {}),
    ...(q.get('resourceVersionMatch') ? { resourceVersionMatch: q.get('resourceVersionMatch')! } : {}),
    ...(sendInitialEvents !== undefined ? { sendInitialEvents } : {}),
    allowWatchBookmarks,
  }, {
    event: (e) => sent(encoder.encode(`${JSON.stringify(e)}\n`), true),
    frame: sent,
    error: fail,
    end: () => finish(),
  });
  if (!started.ok) return writeStatus(ctx, started.error);

  stream = startWatch(ctx);
  for (const f of pending.splice(0)) {
    if (!stream.write(f)) blocked = true;
  }
  if (blocked) void stream.drain().then(flush);
  const timeoutMs = timeoutSeconds > 0
    ? timeoutSeconds * 1000
    : settings.minRequestTimeoutSeconds * 1000 * (1 + Math.random());
  const timers: NodeJS.Timeout[] = [setTimeout(finish, timeoutMs)];
  // kube's cacher sends a bookmark up to 2 s before a watch times out, so the client resumes from a fresh revision.
  if (allowWatchBookmarks && timeoutMs > 2000) timers.push(setTimeout(() => started.value.bookmark(), timeoutMs - 2000));
  const onAbort = (): void => finish();
  if (ctx.signal.aborted || done) finish();
  else ctx.signal.addEventListener('abort', onAbort, { once: true });
  await finished;
  started.value.cancel();
  for (const t of timers) clearTimeout(t);
  ctx.signal.removeEventListener('abort', onAbort);
  if (stream.closed) return;
  stream.end();
  if (blocked) {
    // abort leaves a response alone once the client has taken it all.
    const ending = stream;
    setTimeout(() => ending.abort(), settings.stalledWatchLingerMs).unref();
  }
}
