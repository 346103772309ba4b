/**
 * The YAML decoding thread: decodes the bodies {@link decodeYamlBody} hands it, one at a time, and answers each
 * with its result. It exists so that a large YAML body (the parser reads about a megabyte a second) does not hold
 * the event loop that serves every other request.
 */
import { parentPort } from 'node:worker_threads';
import { decodeYaml } from './decode-yaml.js';
import type { DecodeResult } from './decode-result.js';

/**
 * The answer for a body: a decoded value goes back as its JSON text when that text reads back as the same value
 * (plain objects and arrays, strings, finite numbers, booleans, null), because the decoding thread's message is
 * read on the event loop in one piece, and JSON text is read there in slices (limits/json-slices.ts); other
 * values, and failures, go back as they are.
 */
export type YamlDecodeAnswer =
  | { readonly id: number; readonly result: DecodeResult }
  | { readonly id: number; readonly json: string; readonly duplicateFields: readonly string[] };

/** True when `JSON.parse(JSON.stringify(value))` makes the same value again. */
function jsonFaithful(value: unknown): boolean {
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v === 'string' || typeof v === 'boolean') continue;
    if (typeof v === 'number') {
      if (!Number.isFinite(v) || Object.is(v, -0)) return false;
      continue;
    }
    if (typeof v !== 'object') return false;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        if (!(i in v)) return false;
        stack.push(v[i]);
      }
      continue;
    }
    if (Object.getPrototypeOf(v) !== Object.prototype) return false;
    for (const child of Object.values(v)) stack.push(child);
  }
  return true;
}

/** A body to decode. */
export interface YamlDecodeRequest {
  readonly id: number;
  readonly body: Uint8Array;
  readonly exactIntegers: boolean;
}

parentPort?.on('message', (request: YamlDecodeRequest) => {
  const body = Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength);
  const result = decodeYaml(body, request.exactIntegers);
  const answer: YamlDecodeAnswer = result.ok && jsonFaithful(result.value)
    ? { id: request.id, json: JSON.stringify(result.value), duplicateFields: result.duplicateFields }
    : { id: request.id, result };
  parentPort!.postMessage(answer);
});
