/**
 * The etcd client thread (see kv-thread.ts): holds the `etcd3` clients of each backend and runs the KV calls the main
 * thread sends, answering each batch of replies in one message. Bytes fields arrive as UTF-8 strings (or Uint8Arrays) and leave as UTF-8 strings.
 */
import { parentPort } from 'node:worker_threads';
import { Etcd3 } from 'etcd3';
import { etcdClientOptions, type EtcdClientSettings } from './etcd-client-options.js';
import type { KvCall, KvReply } from './kv-thread.js';

const port = parentPort;
if (port === null) throw new Error('kv-thread-entry runs as a worker thread');

/**
 * Each backend's clients: one for reads, which may be tried again on another member, one for writes, which never
 * are (see etcd-client-options.ts).
 */
const clients = new Map<number, { readonly reads: Etcd3; readonly writes: Etcd3 }>();

const open = (settings: EtcdClientSettings) => ({
  reads: new Etcd3(etcdClientOptions(settings, true)),
  writes: new Etcd3(etcdClientOptions(settings)),
});

/** Request fields of etcd's KV protocol that are bytes. */
const bytesFields = new Set(['key', 'range_end', 'value']);

/** The request with its bytes fields given as strings turned into UTF-8 bytes (in place: it is this thread's copy). */
function toWire(node: unknown): unknown {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) node[i] = toWire(node[i]);
    return node;
  }
  if (node === null || typeof node !== 'object' || node instanceof Uint8Array) return node;
  const o = node as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    const v = o[k];
    o[k] = typeof v === 'string' && bytesFields.has(k) ? Buffer.from(v, 'utf8') : toWire(v);
  }
  return o;
}

/** The response with every bytes field as a UTF-8 string (in place). */
function fromWire(node: unknown): unknown {
  if (node instanceof Uint8Array) return Buffer.from(node.buffer, node.byteOffset, node.byteLength).toString('utf8');
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) node[i] = fromWire(node[i]);
    return node;
  }
  if (node === null || typeof node !== 'object') return node;
  const o = node as Record<string, unknown>;
  for (const k of Object.keys(o)) o[k] = fromWire(o[k]);
  return o;
}

let replies: KvReply[] = [];
let flushing = false;
const flush = (): void => {
  flushing = false;
  const batch = replies;
  replies = [];
  port.postMessage(batch);
};
const reply = (r: KvReply): void => {
  replies.push(r);
  // Answers that arrive in the same turn of this thread's loop go back together.
  if (!flushing) {
    flushing = true;
    setImmediate(flush);
  }
};

port.on('message', (items: KvCall[]) => {
  for (const item of items) {
    if (item.op === 'open') {
      // A client queued for a thread that was lost is also in the new thread's first message: open it once.
      if (!clients.has(item.client)) clients.set(item.client, open(item.settings));
      continue;
    }
    if (item.op === 'close') {
      const closing = clients.get(item.client);
      closing?.reads.close();
      closing?.writes.close();
      clients.delete(item.client);
      continue;
    }
    const { id } = item;
    const fail = (error: unknown): void =>
      reply({
        id,
        ok: false,
        name: error instanceof Error ? error.name : 'Error',
        message: error instanceof Error ? error.message : String(error),
      });
    const client = clients.get(item.client);
    if (client === undefined) {
      fail(new Error('the etcd client is closed'));
      continue;
    }
    try {
      const request = toWire(item.request) as never;
      // Every txn the backend sends writes (a read-only one would go with the reads).
      const run = item.method === 'txn' ? client.writes.kv.txn(request) : client.reads.kv.range(request);
      run.then((value) => reply({ id, ok: true, value: fromWire(value) }), fail);
    } catch (error) {
      // A request the client refuses outright fails alone, not the thread and every call on it.
      fail(error);
    }
  }
});
