/**
 * Watch streams: `GET <collection>?watch=true` read as newline-delimited JSON events, or as length-prefixed protobuf
 * frames when the client speaks protobuf and the server answers in it, as an abortable AsyncIterable.
 * When the connection ends (server timeout, network), the stream reconnects from the last resourceVersion it saw,
 * as client-go's RetryWatcher does. A transient failure (an `ERROR` event or an answer with a 5xx or 429 Status,
 * e.g. while the server's storage fails over) is retried the same way with backoff. Any other `ERROR` ends the
 * iteration: its object is the Status, and code 410 (Expired/Gone) means the caller's resourceVersion is too old
 * and it must list again.
 */
import type { IncomingMessage } from 'node:http';
import { fail, flavours, namesFor, ok, type Flavour, type KubeObject, type Result, type Status, type WatchEvent } from '@svc-apiserver/api';
import { protobufCodec } from '@svc-apiserver/protobuf';
import { resourcePath, withQuery, type ResourceRef } from './paths.js';
import { statusFromResponse, transportFailure } from './call-failure.js';
import type { Transport } from './transport.js';
import { sleep } from './sleep.js';
import { retryAfterMs } from './retry-policy.js';
import { mediaTypeOfHeader, protobufFlavourOf } from './codec.js';

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

/** One event read from a stream, or what was wrong with it. */
type ReadEvent<T> = Result<WatchEvent<T>, string>;

/** The events of a JSON watch stream: one per line. */
async function* jsonEvents<T>(stream: IncomingMessage): AsyncGenerator<ReadEvent<T>> {
  for await (const line of lines(stream)) {
    try {
      yield ok(JSON.parse(line) as WatchEvent<T>);
    } catch {
      yield fail(`the server sent a watch event that is not JSON: ${line.slice(0, 200)}`);
      return;
    }
  }
}

/**
 * The events of a protobuf watch stream: frames of a 4-byte big-endian length and a `WatchEvent` message (the
 * framing client-go's protobuf watch decoder reads). A frame is bounded by the largest object the server stores.
 */
async function* protobufEvents<T>(stream: IncomingMessage, flavour: Flavour): AsyncGenerator<ReadEvent<T>> {
  const codec = protobufCodec(namesFor(flavour));
  let pending: Buffer = Buffer.alloc(0);
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let start = 0;
    while (pending.length - start >= 4) {
      const length = pending.readUInt32BE(start);
      if (length > maxFrameBytes) {
        yield fail(`the server sent a watch frame of ${length} bytes, more than ${maxFrameBytes}`);
        return;
      }
      if (pending.length - start - 4 < length) break;
      const event = codec.decodeWatchEvent(pending.subarray(start + 4, start + 4 + length));
      start += 4 + length;
      if (!event.ok) {
        yield fail(`the server sent a watch event that does not decode: ${event.error.message}`);
        return;
      }
      yield event as ReadEvent<T>;
    }
    pending = pending.subarray(start);
  }
}

/** The largest watch frame read: an object of etcd's largest request (1.5 MiB) in its envelope, with room to spare. */
const maxFrameBytes = 16 * 1024 * 1024;

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
export function watchResource<T extends KubeObject = KubeObject>(
  transport: Transport,
  ref: ResourceRef,
  options: WatchOptions = {},
  accept: () => Promise<Result<string>> = () => Promise.resolve(ok('application/json')),
): WatchHandle<T> {
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
      const acceptHeader = await accept();
      const opened = acceptHeader.ok ? await transport.open({ method: 'GET', path, headers: { accept: acceptHeader.value }, signal }) : acceptHeader;
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
        const protobuf = protobufFlavourOf(mediaTypeOfHeader(headerText(res.headers['content-type'])));
        for await (const read of protobuf === undefined ? jsonEvents<T>(res) : protobufEvents<T>(res, protobuf)) {
          if (!read.ok) {
            res.destroy();
            yield errorEvent<T>(transportFailure(read.error));
            return;
          }
          const event = read.value;
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
