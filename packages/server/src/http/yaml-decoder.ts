/**
 * YAML request bodies decoded off the event loop when they are large. The YAML parser reads about a megabyte a
 * second, so a body near the 3 MiB limit would hold every other request (and `/livez`) for seconds: bodies of
 * {@link offThreadBytes} or more go to one decoding thread, smaller ones are decoded at once. The thread runs with
 * a heap limit: a body that would exhaust it ends that thread (the client gets 400) instead of the process, and
 * the next large body starts a new one.
 */
import { Worker } from 'node:worker_threads';
import { badRequest, fail, internalError } from '@svc-apiserver/api';
import { decodeYaml, decodeYamlAsJsonYielding, type DecodeResult } from './decode.js';
import type { YamlDecodeAnswer, YamlDecodeRequest } from './yaml-decode-worker.js';
import { parseJsonSteps } from '../limits/json-slices.js';
import { runStepsYielding } from '../limits/turn-budget.js';

/** Bodies from this size on are decoded on the decoding thread. */
export const offThreadBytes = 64 * 1024;

/** The decoding thread's heap, in MiB. */
const heapLimitMb = 512;

interface Pending {
  readonly resolve: (result: DecodeResult) => void;
}

let worker: Worker | undefined;
let nextId = 0;
const pending = new Map<number, Pending>();

function failAll(why: string): void {
  for (const p of pending.values()) p.resolve(fail(badRequest(why)));
  pending.clear();
}

function decodingThread(): Worker {
  if (worker !== undefined) return worker;
  const here = import.meta.url;
  const w = new Worker(new URL(here.endsWith('.ts') ? './yaml-decode-worker.ts' : './yaml-decode-worker.js', here), {
    resourceLimits: { maxOldGenerationSizeMb: heapLimitMb },
  });
  // The server's sockets keep the process alive; the thread alone must not.
  w.unref();
  w.on('message', (message: YamlDecodeAnswer) => {
    const p = pending.get(message.id);
    pending.delete(message.id);
    if (p === undefined) return;
    if ('result' in message) return p.resolve(message.result);
    // The value's JSON text, read in slices of the event loop's turns.
    void runStepsYielding(parseJsonSteps(message.json)).then((parsed) => p.resolve(parsed.ok
      ? { ok: true, value: parsed.value, duplicateFields: message.duplicateFields }
      : fail(internalError(`yaml: the decoding thread answered no JSON: ${parsed.message}`))));
  });
  const gone = (why: string): void => {
    if (worker === w) worker = undefined;
    failAll(why);
  };
  w.on('error', (e: Error & { code?: string }) => gone(e.code === 'ERR_WORKER_OUT_OF_MEMORY'
    ? 'yaml: the document is too large to decode'
    : 'yaml: the document could not be decoded'));
  w.on('exit', () => gone('yaml: the document could not be decoded'));
  worker = w;
  return w;
}

/**
 * Decodes a YAML request body: at once when small or JSON text (the JSON parser is fast), on the decoding thread
 * otherwise.
 */
export async function decodeYamlBody(body: Buffer, exactIntegers: boolean): Promise<DecodeResult> {
  if (body.length < offThreadBytes) return decodeYaml(body, exactIntegers);
  const asJson = await decodeYamlAsJsonYielding(body, exactIntegers);
  if (asJson !== undefined) return asJson;
  return new Promise((resolve) => {
    const w = decodingThread();
    const id = nextId++;
    pending.set(id, { resolve });
    const request: YamlDecodeRequest = { id, body, exactIntegers };
    w.postMessage(request);
  });
}
