/**
 * Watch streams of a reliability run, recorded event by event. A chain is what an informer sees: a consistent LIST,
 * then a watch from the list's resourceVersion, reconnected from the last resourceVersion delivered (an event's or
 * a BOOKMARK's) whenever the connection ends — the server's timeout, a crash, a restart — for as long as the server
 * does not answer 410 Expired (the chain then ends and a new one starts with a new LIST). Each connection is a
 * segment; the checker verifies the chain across them.
 *
 * Watches are read raw (newline-delimited JSON over the client's transport), not through the client's watch helper,
 * so that every event, every reconnection and its resourceVersion are the harness's own record. A slow watcher stops
 * reading for a while now and then, so the server's buffers fill as a slow client's do.
 *
 * A probe is a single segment from a resourceVersion some chain delivered: "resumable from any resourceVersion".
 */
import type { IncomingMessage } from 'node:http';
import { createTransport, type Transport } from '@svc-apiserver/client';
import type { ListedObject, RecordedOperation } from './history-operation.js';
import type { Replica, ReplicaLife } from './history-servers.js';

/** One event as a watcher received it. */
export interface WatchEventRecord {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK';
  /** The object's name ('' for a BOOKMARK). */
  readonly name: string;
  readonly rv: number;
  /** The object's `data.w` ('' for a BOOKMARK). */
  readonly value: string;
  /** Harness clock when it arrived. */
  readonly at: number;
}

/** How a segment ended. */
export type SegmentEnd =
  /** The server ended the response (its timeout). */
  | { readonly kind: 'closed'; readonly at: number }
  /** The connection failed (the server died). */
  | { readonly kind: 'broken'; readonly at: number; readonly message: string }
  /** 410 Expired: the resourceVersion asked for is compacted. */
  | { readonly kind: 'expired'; readonly at: number; readonly message: string }
  /** Another error answer or ERROR event. */
  | { readonly kind: 'refused'; readonly at: number; readonly code: number; readonly message: string }
  /** The harness ended it. */
  | { readonly kind: 'stopped'; readonly at: number };

/** One watch connection. */
export interface WatchSegment {
  readonly replica: string;
  readonly generation: number;
  /** The resourceVersion the watch asked to start after. */
  readonly from: number;
  readonly opened: number;
  readonly events: WatchEventRecord[];
  end?: SegmentEnd;
}

/** A list-then-watch chain, or a probe. */
export interface WatchChain {
  readonly id: string;
  readonly kind: 'main' | 'probe';
  /** Which replica it watches. */
  readonly replica: string;
  /** The objects as of `start` (the LIST's items, or the origin chain's state for a probe), by name. */
  readonly initial: ReadonlyMap<string, { readonly rv: number; readonly value: string }>;
  /** The resourceVersion the chain starts after. */
  readonly start: number;
  readonly segments: WatchSegment[];
  /** For a probe: the chain whose delivered resourceVersion it starts from. */
  readonly origin?: string;
}

/** The last resourceVersion a chain delivered (an event's or a BOOKMARK's), or its start. */
export function lastDelivered(chain: WatchChain): number {
  for (let i = chain.segments.length - 1; i >= 0; i--) {
    const events = chain.segments[i]!.events;
    if (events.length > 0) return events[events.length - 1]!.rv;
  }
  return chain.start;
}

/** The last connections of a chain, for a report: where each started, how it ended, what it delivered. */
export function describeChain(chain: WatchChain, last = 4): string {
  const parts = chain.segments.slice(-last).map((s) => {
    const end = s.end === undefined ? 'open' : `${s.end.kind}${'code' in s.end ? ` ${s.end.code}` : ''}${'message' in s.end ? ` (${s.end.message.slice(0, 120)})` : ''}`;
    const events = s.events.length === 0 ? 'no events' : `${s.events.length} events ${s.events[0]!.rv}..${s.events[s.events.length - 1]!.rv}`;
    return `[${s.replica} life ${s.generation} from ${s.from} at ${s.opened.toFixed(0)} ms: ${events}, ${end}]`;
  });
  return `${chain.id} (start ${chain.start}, ${chain.segments.length} connections): ${parts.join(' ')}`;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Transports per replica life, made on first use and closed when the life is over. */
function transports(): { of(replica: Replica, life: ReplicaLife): Transport; close(): void } {
  const held = new Map<string, { life: ReplicaLife; transport: Transport }>();
  return {
    of(replica, life) {
      const h = held.get(replica.name);
      if (h !== undefined && h.life === life) return h.transport;
      h?.transport.close();
      const transport = createTransport(life.config);
      held.set(replica.name, { life, transport });
      return transport;
    },
    close() {
      for (const h of held.values()) h.transport.close();
      held.clear();
    },
  };
}

/** Options of one watch connection. */
interface SegmentOptions {
  readonly transport: Transport;
  readonly replica: string;
  readonly generation: number;
  readonly namespace: string;
  readonly from: number;
  readonly timeoutSeconds: number;
  /** Reads slowly while this says so. */
  readonly slow: () => boolean;
  readonly random: () => number;
  readonly signal: AbortSignal;
  /** Told about each event as it is recorded. */
  readonly onEvent: (e: WatchEventRecord) => void;
}

/** The compacted revision in kube's 410 message `too old resource version: X (Y)`, when it says. */
export function compactRevisionOf(message: string): number | undefined {
  const m = /too old resource version: \d+ \((\d+)\)/.exec(message);
  return m === null ? undefined : Number(m[1]);
}

/** Reads a response body whole (error answers). */
async function readAll(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  try {
    for await (const c of res as AsyncIterable<Buffer>) chunks.push(c);
  } catch {
    // What arrived is enough to describe the failure.
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Runs one watch connection to its end; `onOpen` gets its segment before any event is recorded in it. The connection
 * has a signal of its own, tied to the caller's: one signal serves a watcher's every connection, and listeners left
 * on it by each would pile up.
 */
async function runSegment(o: SegmentOptions, onOpen: (segment: WatchSegment) => void): Promise<WatchSegment> {
  const own = new AbortController();
  const abort = (): void => own.abort();
  if (o.signal.aborted) own.abort();
  else o.signal.addEventListener('abort', abort, { once: true });
  try {
    return await runConnection({ ...o, signal: own.signal }, onOpen);
  } finally {
    o.signal.removeEventListener('abort', abort);
  }
}

/** One connection of {@link runSegment}. */
async function runConnection(o: SegmentOptions, onOpen: (segment: WatchSegment) => void): Promise<WatchSegment> {
  const segment: WatchSegment = { replica: o.replica, generation: o.generation, from: o.from, opened: performance.now(), events: [] };
  onOpen(segment);
  const path = `/api/v1/namespaces/${o.namespace}/configmaps?watch=true&allowWatchBookmarks=true`
    + `&resourceVersion=${o.from}&timeoutSeconds=${o.timeoutSeconds}`;
  const opened = await o.transport.open({ method: 'GET', path, headers: { accept: 'application/json' }, signal: o.signal });
  if (!opened.ok) {
    segment.end = o.signal.aborted
      ? { kind: 'stopped', at: performance.now() }
      : { kind: 'broken', at: performance.now(), message: opened.error.message ?? 'transport failure' };
    return segment;
  }
  const res = opened.value;
  if (res.statusCode !== 200) {
    const text = await readAll(res);
    let message = text;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? text;
    } catch {
      // Not a Status: keep the text.
    }
    const at = performance.now();
    segment.end = res.statusCode === 410 ? { kind: 'expired', at, message } : { kind: 'refused', at, code: res.statusCode ?? 0, message };
    return segment;
  }
  await new Promise<void>((resolve) => {
    let pending = '';
    let done = false;
    const finish = (end: SegmentEnd): void => {
      if (done) return;
      done = true;
      segment.end = end;
      res.destroy();
      resolve();
    };
    const line = (text: string): void => {
      let event: { type?: string; object?: Record<string, any> };
      try {
        event = JSON.parse(text) as typeof event;
      } catch {
        finish({ kind: 'refused', at: performance.now(), code: 0, message: `a watch line that is not JSON: ${text.slice(0, 200)}` });
        return;
      }
      const at = performance.now();
      if (event.type === 'ERROR') {
        const code = Number(event.object?.['code'] ?? 0);
        const message = String(event.object?.['message'] ?? '');
        finish(code === 410 ? { kind: 'expired', at, message } : { kind: 'refused', at, code, message });
        return;
      }
      const type = event.type;
      const meta = event.object?.['metadata'] as { name?: string; resourceVersion?: string } | undefined;
      const rv = Number(meta?.resourceVersion);
      if ((type !== 'ADDED' && type !== 'MODIFIED' && type !== 'DELETED' && type !== 'BOOKMARK') || !Number.isSafeInteger(rv)) {
        finish({ kind: 'refused', at, code: 0, message: `an event the harness cannot read: ${text.slice(0, 200)}` });
        return;
      }
      const record: WatchEventRecord = type === 'BOOKMARK'
        ? { type, name: '', rv, value: '', at }
        : { type, name: meta?.name ?? '', rv, value: String((event.object?.['data'] as { w?: string } | undefined)?.w ?? ''), at };
      segment.events.push(record);
      o.onEvent(record);
    };
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      pending += chunk;
      let nl: number;
      while (!done && (nl = pending.indexOf('\n')) >= 0) {
        const text = pending.slice(0, nl).trim();
        pending = pending.slice(nl + 1);
        if (text !== '') line(text);
      }
      // A slow client: stop reading for a while, so what the server sends piles up in its buffers and ours.
      if (o.slow() && !done && o.random() < 0.2) {
        res.pause();
        setTimeout(() => {
          if (!done) res.resume();
        }, 50 + o.random() * 400);
      }
    });
    res.on('end', () => finish({ kind: 'closed', at: performance.now() }));
    res.on('error', (e) => finish(o.signal.aborted ? { kind: 'stopped', at: performance.now() } : { kind: 'broken', at: performance.now(), message: e.message }));
    res.on('close', () => finish(o.signal.aborted ? { kind: 'stopped', at: performance.now() } : { kind: 'broken', at: performance.now(), message: 'connection closed' }));
    o.signal.addEventListener('abort', () => finish({ kind: 'stopped', at: performance.now() }), { once: true });
  });
  return segment;
}

/** Options of {@link startMainWatcher}. */
export interface MainWatcherOptions {
  readonly id: string;
  readonly replica: Replica;
  readonly namespace: string;
  /** Reads slowly (see the file comment). */
  readonly slow: boolean;
  /** Server-side timeout of each connection, picked at random in this range (s), so chains reconnect often. */
  readonly timeoutSeconds: readonly [number, number];
  readonly random: () => number;
  /** Receives each chain when it starts (its segments fill as it runs). */
  readonly onChain: (chain: WatchChain) => void;
  /** Receives the LIST each chain starts with, as an operation of the history. */
  readonly record: (op: Omit<RecordedOperation, 'id'>) => void;
  /** Receives an answer no request of the harness should get. */
  readonly unexpected: (text: string) => void;
}

/** A running main watcher. */
export interface MainWatcher {
  /** The chain now running. */
  current(): WatchChain | undefined;
  /** A slow watcher reads at full speed from now on (the run is over; what it missed must arrive). */
  hurry(): void;
  /** Resolves true once the current chain has delivered `rv` or more, false after `timeoutMs`. */
  waitFor(rv: number, timeoutMs: number): Promise<boolean>;
  stop(): Promise<void>;
}

/** A LIST's outcome: the objects, or why not (`transient`: no answer, 5xx or 429, worth trying again). */
export type ListOutcome =
  | { readonly ok: true; readonly rv: number; readonly items: ListedObject[] }
  | { readonly ok: false; readonly transient: boolean; readonly message: string };

/** A consistent LIST of the namespace's ConfigMaps. */
export async function listObjects(transport: Transport, namespace: string): Promise<ListOutcome> {
  const res = await transport.send({ method: 'GET', path: `/api/v1/namespaces/${namespace}/configmaps`, headers: { accept: 'application/json' } });
  if (!res.ok) return { ok: false, transient: true, message: res.error.message ?? 'transport failure' };
  const { status } = res.value;
  const text = res.value.body.toString('utf8');
  if (status !== 200) return { ok: false, transient: status >= 500 || status === 429, message: `answered ${status}: ${text.slice(0, 200)}` };
  try {
    const body = JSON.parse(text) as { metadata: { resourceVersion: string }; items: { metadata: { name: string; resourceVersion: string }; data?: { w?: string } }[] };
    const rv = Number(body.metadata.resourceVersion);
    if (!Number.isSafeInteger(rv)) return { ok: false, transient: false, message: `a list without a resourceVersion: ${text.slice(0, 200)}` };
    return { ok: true, rv, items: body.items.map((i) => ({ name: i.metadata.name, rv: Number(i.metadata.resourceVersion), value: i.data?.w ?? '' })) };
  } catch {
    return { ok: false, transient: false, message: `answered 200 with a body that is not a list: ${JSON.stringify(text.slice(0, 200))}` };
  }
}

/** Starts an informer-like watcher on one replica. */
export function startMainWatcher(o: MainWatcherOptions): MainWatcher {
  const held = transports();
  const abort = new AbortController();
  let chain: WatchChain | undefined;
  let chains = 0;
  let slow = o.slow;
  let waiters: { rv: number; resolve: (ok: boolean) => void }[] = [];
  /** Tells waiters the watcher has delivered `rv` (an event's, or a new chain's LIST's). */
  const reached = (rv: number): void => {
    waiters = waiters.filter((w) => {
      if (rv < w.rv) return true;
      w.resolve(true);
      return false;
    });
  };
  const onEvent = (e: WatchEventRecord): void => reached(e.rv);

  const loop = (async () => {
    while (!abort.signal.aborted) {
      const life = o.replica.current() ?? (await Promise.race([o.replica.whenUp(), sleep(200).then(() => undefined)]));
      if (life === undefined) continue;
      const transport = held.of(o.replica, life);
      const call = performance.now();
      const listed = await listObjects(transport, o.namespace);
      if (!listed.ok) {
        if (!listed.transient) o.unexpected(`the LIST of ${o.id} on ${o.replica.name}: ${listed.message}`);
        await sleep(100);
        continue;
      }
      o.record({ client: o.id, replica: o.replica.name, generation: life.generation, verb: 'list', output: { kind: 'list', rv: listed.rv, items: listed.items }, call, return: performance.now(), status: 200 });
      chain = {
        id: `${o.id}/${chains++}`, kind: 'main', replica: o.replica.name, start: listed.rv, segments: [],
        initial: new Map(listed.items.map((i) => [i.name, { rv: i.rv, value: i.value }])),
      };
      o.onChain(chain);
      reached(chain.start);
      for (;;) {
        if (abort.signal.aborted) break;
        const now = o.replica.current() ?? (await Promise.race([o.replica.whenUp(), sleep(200).then(() => undefined)]));
        if (now === undefined) continue;
        const [low, high] = o.timeoutSeconds;
        const segment = await runSegment({
          transport: held.of(o.replica, now), replica: o.replica.name, generation: now.generation, namespace: o.namespace,
          from: lastDelivered(chain), timeoutSeconds: Math.round(low + o.random() * (high - low)), slow: () => slow,
          random: o.random, signal: abort.signal, onEvent,
        }, (s) => chain!.segments.push(s));
        // A connection refused never reached a server: nothing happened that the record needs.
        if (segment.end?.kind === 'broken' && segment.events.length === 0 && segment.end.message.includes('ECONNREFUSED')) {
          chain.segments.pop();
          await sleep(50);
          continue;
        }
        if (segment.end?.kind === 'expired') break;
        if (segment.end?.kind === 'refused' || segment.end?.kind === 'broken') await sleep(100);
      }
    }
  })();

  return {
    current: () => chain,
    hurry() {
      slow = false;
    },
    waitFor(rv, timeoutMs) {
      if (chain !== undefined && lastDelivered(chain) >= rv) return Promise.resolve(true);
      return new Promise((resolve) => {
        const waiter = { rv, resolve };
        waiters.push(waiter);
        setTimeout(() => {
          waiters = waiters.filter((w) => w !== waiter);
          resolve(false);
        }, timeoutMs).unref();
      });
    },
    async stop() {
      abort.abort();
      await loop;
      held.close();
      for (const w of waiters) w.resolve(false);
      waiters = [];
    },
  };
}

/** Options of {@link runProbe}. */
export interface ProbeOptions {
  readonly id: string;
  readonly replica: Replica;
  readonly namespace: string;
  /** The chain the probe resumes, and the resourceVersion it delivered that the probe starts after. */
  readonly origin: WatchChain;
  readonly from: number;
  /** The origin's objects as of `from`. */
  readonly initial: ReadonlyMap<string, { readonly rv: number; readonly value: string }>;
  /** Stop once this resourceVersion is delivered, or after `timeoutMs`. */
  readonly until: number;
  readonly timeoutMs: number;
  readonly random: () => number;
}

/** Watches once from a delivered resourceVersion, until `until` arrives or time runs out. */
export async function runProbe(o: ProbeOptions): Promise<WatchChain> {
  const chain: WatchChain = {
    id: o.id, kind: 'probe', replica: o.replica.name, start: o.from, segments: [], initial: o.initial, origin: o.origin.id,
  };
  const life = o.replica.current();
  if (life === undefined) return chain;
  const transport = createTransport(life.config);
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), o.timeoutMs);
  try {
    const segment = await runSegment({
      transport, replica: o.replica.name, generation: life.generation, namespace: o.namespace, from: o.from,
      timeoutSeconds: Math.ceil(o.timeoutMs / 1000) + 5, slow: () => false, random: o.random, signal: abort.signal,
      onEvent: (e) => {
        if (e.rv >= o.until) abort.abort();
      },
    }, (s) => chain.segments.push(s));
    // A probe that reached a server which went away meanwhile tells nothing; one never connected is not kept.
    if (segment.end?.kind === 'broken' && segment.events.length === 0) chain.segments.pop();
  } finally {
    clearTimeout(timer);
    transport.close();
  }
  return chain;
}
