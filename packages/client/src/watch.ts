/**
 * Watch streams: `GET <collection>?watch=true` read as newline-delimited JSON events, as an abortable AsyncIterable.
 * When the connection ends (server timeout, network), the stream reconnects from the last resourceVersion it saw,
 * as client-go's RetryWatcher does. A transient failure (an `ERROR` event or an answer with a 5xx or 429 Status,
 * e.g. while the server's storage fails over) is retried the same way with backoff. Any other `ERROR` ends the
 * iteration: its object is the Status, and code 410 (Expired/Gone) means the caller's resourceVersion is too old
 * and it must list again.
 */
import type { IncomingMessage } from 'node:http';
import { flavours, namesFor, type KubeObject, type Status, type WatchEvent } from '@svc-apiserver/api';
import { resourcePath, withQuery, type ResourceRef } from './paths.js';
import { statusFromResponse, transportFailure } from './call-failure.js';
import type { Transport } from './transport.js';
import { sleep } from './sleep.js';
import { retryAfterMs } from './retry-policy.js';

const headerText = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** Options of a watch. */
export interface WatchOptions {
  readonly labelSelector?: string;
  readonly fieldSelector?: string;
  /** Start after this version; absent means "get state and start at most recent" (synthetic ADDED events). */
  readonly resourceVersion?: string;
  readonly allowWatchBookmarks?: boolean;
  /**
   * WatchList: the server first sends the current state as ADDED events, then a BOOKMARK annotated
   * initial-events-end (needs `resourceVersionMatch: 'NotOlderThan'` and bookmarks, which this sets).
   */
  readonly sendInitialEvents?: boolean;
  /** Asks the server to end each connection after this long; the stream then reconnects. */
  readonly timeoutSeconds?: number;
  readonly signal?: AbortSignal;
  /** Reconnect after the connection ends. Default true. */
  readonly reconnect?: boolean;
  /** Connection attempts in a row that may fail before the stream gives up with an ERROR event. Default 5. */
  readonly maxRetries?: number;
  /** Delay before a reconnect, in ms. Default 200 (doubling on consecutive failures). */
  readonly retryDelayMs?: number;
}

/** A running watch. Iterate it once; `close()` ends it. */
export interface WatchHandle<T extends KubeObject = KubeObject> extends AsyncIterable<WatchEvent<T>> {
  /** The last resourceVersion seen (or the starting one). */
  readonly resourceVersion: string | undefined;
  close(): void;
}

/** A failure worth retrying from the same resourceVersion: the server or its storage was briefly unavailable. */
function transient(status: Status): boolean {
  return status.code >= 500 || status.code === 429;
}

/** An ERROR event carrying a Status, as the server sends for 410. */
function errorEvent<T>(status: Status): WatchEvent<T> {
  return { type: 'ERROR', object: status as unknown as T };
}

/** True when an ERROR event tells the caller to list again (410 Expired/Gone). */
export function isResourceExpired(event: WatchEvent<unknown>): boolean {
  if (event.type !== 'ERROR') return false;
  const code = (event.object as { code?: unknown } | null)?.code;
  return code === 410;
}

const initialEventsEndKeys = flavours.map((f) => namesFor(f).name('initialEventsEndAnnotation'));

/** True for the BOOKMARK that ends a WatchList's initial events (annotated in either flavour's name). */
export function isInitialEventsEnd(event: WatchEvent<unknown>): boolean {
  if (event.type !== 'BOOKMARK') return false;
  const annotations = (event.object as KubeObject | null)?.metadata?.annotations ?? {};
  return initialEventsEndKeys.some((k) => annotations[k] === 'true');
}

/** Splits a byte stream into lines (the watch framing kube-apiserver uses for JSON). */
async function* lines(stream: IncomingMessage): AsyncGenerator<string> {
  let pending = '';
  stream.setEncoding('utf8');
  for await (const chunk of stream as AsyncIterable<string>) {
    // scan with an index and keep only the unfinished tail: slicing the rest per line is quadratic in a chunk
    const text = pending + chunk;
    let start = 0;
    let nl: number;
    while ((nl = text.indexOf('\n', start)) >= 0) {
      const line = text.slice(start, nl).trim();
      start = nl + 1;
      if (line) yield line;
    }
    pending = text.slice(start);
  }
  if (pending.trim()) yield pending.trim();
}


/** Starts a watch on a collection (a single object: pass `fieldSelector: metadata.name=<name>`). */
export function watchResource<T extends KubeObject = KubeObject>(transport: Transport, ref: ResourceRef, options: WatchOptions = {}): WatchHandle<T> {
  const controller = new AbortController();
  const signal = controller.signal;
  if (options.signal) {
    if (options.signal.aborted) controller.abort();
    else options.signal.addEventListener('abort', () => controller.abort(), { once: true });
  }
  let resourceVersion = options.resourceVersion;
  /** With WatchList, until the end-of-initial-events bookmark the object versions are not a resume point. */
  let initialEventsDone = options.sendInitialEvents !== true;
  const reconnect = options.reconnect ?? true;
  const maxRetries = options.maxRetries ?? 5;
  const baseDelay = options.retryDelayMs ?? 200;
  /** Doubling delays, capped at 5 s as client-go's watch backoff is. */
  const backoff = (n: number): number => Math.min(baseDelay * 2 ** (n - 1), 5000);

  async function* run(): AsyncGenerator<WatchEvent<T>> {
    try {
      yield* connectLoop();
    } finally {
      // a consumer that stops iterating (break, return, throw) ends the connection too
      controller.abort();
    }
  }

  async function* connectLoop(): AsyncGenerator<WatchEvent<T>> {
    let failures = 0;
    while (!signal.aborted) {
      // initial events are asked for once: a reconnect resumes from the last resourceVersion seen
      const initialEvents = options.sendInitialEvents === true && !initialEventsDone;
      const path = withQuery(resourcePath(ref), {
        watch: 'true',
        resourceVersion,
        labelSelector: options.labelSelector,
        fieldSelector: options.fieldSelector,
        allowWatchBookmarks: options.allowWatchBookmarks || initialEvents ? 'true' : undefined,
        sendInitialEvents: initialEvents ? 'true' : undefined,
        resourceVersionMatch: initialEvents ? 'NotOlderThan' : undefined,
        timeoutSeconds: options.timeoutSeconds,
      });
      const opened = await transport.open({ method: 'GET', path, headers: { accept: 'application/json' }, signal });
      if (signal.aborted) return;
      if (!opened.ok) {
        failures++;
        if (!reconnect || failures > maxRetries) {
          yield errorEvent<T>(opened.error);
          return;
        }
        await sleep(backoff(failures), signal);
        continue;
      }
      const res = opened.value;
      if (res.statusCode !== 200) {
        const chunks: Buffer[] = [];
        try {
          for await (const c of res as AsyncIterable<Buffer>) chunks.push(c);
        } catch {
          // the status line is enough
        }
        const status = statusFromResponse(res.statusCode ?? 0, Buffer.concat(chunks), res.headers['content-type']);
        if (reconnect && transient(status) && ++failures <= maxRetries) {
          await sleep(retryAfterMs(headerText(res.headers['retry-after'])) ?? backoff(failures), signal);
          continue;
        }
        yield errorEvent<T>(status);
        return;
      }
      let retryAfterError: Status | undefined;
      try {
        for await (const line of lines(res)) {
          let event: WatchEvent<T>;
          try {
            event = JSON.parse(line) as WatchEvent<T>;
          } catch {
            res.destroy();
            yield errorEvent<T>(transportFailure(`the server sent a watch event that is not JSON: ${line.slice(0, 200)}`));
            return;
          }
          if (event.type === 'ERROR') {
            res.destroy();
            if (reconnect && transient(event.object as unknown as Status)) {
              retryAfterError = event.object as unknown as Status;
              break;
            }
            yield event;
            return;
          }
          const rv = (event.object as KubeObject | undefined)?.metadata?.resourceVersion;
          if (!initialEventsDone && isInitialEventsEnd(event)) initialEventsDone = true;
          if (rv && initialEventsDone) resourceVersion = rv;
          failures = 0;
          yield event;
          if (signal.aborted) {
            res.destroy();
            return;
          }
        }
      } catch {
        // connection reset or aborted: reconnect below unless the caller stopped
      }
      if (signal.aborted || !reconnect) return;
      if (retryAfterError !== undefined) {
        if (++failures > maxRetries) {
          yield errorEvent<T>(retryAfterError);
          return;
        }
        await sleep(backoff(failures), signal);
      }
    }
  }

  const iterable = run();
  return {
    get resourceVersion() {
      return resourceVersion;
    },
    close() {
      controller.abort();
    },
    [Symbol.asyncIterator]() {
      return iterable;
    },
  };
}
