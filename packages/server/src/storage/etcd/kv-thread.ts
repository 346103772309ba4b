/**
 * The etcd Backend's reads and writes (KV `Range` and `Txn`) run on a thread of their own: a gRPC unary call costs
 * the `etcd3`/grpc-js client about as much CPU as the API server spends on the rest of a create, and the server's
 * main thread is the one that serves HTTP. Calls made in the same turn of the event loop cross to the thread in one
 * message and their answers come back batched the same way, so the main thread pays tens of microseconds a call
 * instead of the few hundred the call itself costs.
 * The thread runs the same client the main thread would (see etcd-client-options.ts): same deadlines, fault
 * handling and TLS; its failures come back as errors with etcd's message, which the backend maps as before.
 * One thread serves every backend of the process, each with its own client on it.
 *
 * Bytes cross as UTF-8 strings where they are text (every key and value the backend writes is): a string is cheap
 * to copy between threads, while a small Buffer is a view of an 8 KiB pool that would be copied whole.
 */
import { Worker } from 'node:worker_threads';
import type { EtcdClientSettings } from './etcd-client-options.js';

/** One message item to the thread: open or close a backend's client, or one KV call on it. */
export type KvCall =
  | { readonly op: 'open'; readonly client: number; readonly settings: EtcdClientSettings }
  | { readonly op: 'close'; readonly client: number }
  | {
      readonly op: 'call';
      readonly client: number;
      readonly id: number;
      readonly method: 'txn' | 'range';
      /** The request, bytes fields as UTF-8 strings or Uint8Arrays. */
      readonly request: unknown;
    };

/** The answer to one call: the response with every bytes field as a UTF-8 string, or the failure's text. */
export type KvReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly name: string; readonly message: string };

/** The main thread's end. */
export interface KvThread {
  /** Runs `method` with `request` on the thread; rejects with an Error carrying etcd's (or gRPC's) message. */
  call<T>(method: 'txn' | 'range', request: unknown): Promise<T>;
  /** Closes this client on the thread (the caller lets its calls in flight end first); later calls reject. */
  close(): Promise<void>;
}

const fromSource = import.meta.url.endsWith('.ts');
const entry = new URL(`./kv-thread-entry.${fromSource ? 'ts' : 'js'}`, import.meta.url);

/**
 * The thread's code as a worker: compiled, the entry module itself. From source (tests, the benchmark), the server
 * runs under tsx, whose `--import` hooks node 20 does not carry into a worker: the worker registers them itself
 * through tsx's API before loading the entry.
 */
function spawnWorker(): Worker {
  if (!fromSource) return new Worker(entry);
  const api = import.meta.resolve('tsx/esm/api');
  const source = `const { register } = await import(${JSON.stringify(api)}); register(); await import(${JSON.stringify(entry.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`));
}

/** The process's one thread and what waits on it. */
let worker: Worker | undefined;
let nextId = 0;
let nextClient = 0;
const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
/** The clients open on the thread, opened again on a new thread if the old one is lost. */
const clients = new Map<number, EtcdClientSettings>();
let queue: KvCall[] = [];
let scheduled = false;

function ensureWorker(): Worker {
  if (worker !== undefined) return worker;
  const w = spawnWorker();
  // The thread keeps the process alive only while calls wait on it, as an open gRPC call would.
  w.unref();
  w.on('message', (replies: KvReply[]) => {
    for (const r of replies) {
      const p = pending.get(r.id);
      if (p === undefined) continue;
      pending.delete(r.id);
      if (r.ok) p.resolve(r.value);
      else p.reject(Object.assign(new Error(r.message), { name: r.name }));
    }
    if (pending.size === 0) w.unref();
  });
  const lost = (why: string): void => {
    if (worker !== w) return;
    worker = undefined;
    for (const p of pending.values()) p.reject(new Error(`the etcd client thread ${why}`));
    pending.clear();
  };
  w.on('error', (e) => lost(`failed: ${e.message}`));
  w.on('exit', (code) => lost(`exited with code ${code}`));
  worker = w;
  w.postMessage([...clients].map(([client, settings]): KvCall => ({ op: 'open', client, settings })));
  return w;
}

function send(): void {
  scheduled = false;
  const batch = queue;
  queue = [];
  if (batch.length === 0) return;
  const w = ensureWorker();
  if (pending.size > 0) w.ref();
  w.postMessage(batch);
}

function enqueue(item: KvCall): void {
  queue.push(item);
  if (!scheduled) {
    scheduled = true;
    // Everything the requests of this turn of the loop ask (each HTTP request arrives in a callback of its own)
    // crosses in one message: a message costs tens of microseconds, whatever it carries.
    setImmediate(send);
  }
}

/** Opens a client with `settings` on the thread (starting the thread if it is not running). */
export function startKvThread(settings: EtcdClientSettings): KvThread {
  const client = nextClient++;
  let closed = false;
  clients.set(client, settings);
  // A thread already running gets the client in the next message. Otherwise the thread starts now, loading the
  // gRPC client on the other core while the server goes on starting, and opens every registered client first.
  if (worker !== undefined) enqueue({ op: 'open', client, settings });
  else ensureWorker();
  return {
    call<T>(method: 'txn' | 'range', request: unknown): Promise<T> {
      if (closed) return Promise.reject(new Error('the etcd client is closed'));
      return new Promise<T>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        enqueue({ op: 'call', client, id, method, request });
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      clients.delete(client);
      if (worker !== undefined) enqueue({ op: 'close', client });
    },
  };
}
