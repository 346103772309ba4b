/**
 * JSON patch (RFC 6902: add, remove, replace, move, copy, test) through `fast-json-patch`, with failures reported
 * the way kube-apiserver reports them: a malformed patch is a 400, an operation that does not apply (a failed
 * `test`, a missing path) a 422 naming the cause, more than 10,000 operations a 413 (kube's
 * maxJSONPatchOperations). `copy` is the one operation that grows an object beyond the patch's own bytes (a few
 * dozen copies of the root double it each time): the bytes copied are counted, and past `copyLimitBytes` the
 * patch fails as evanphx/json-patch fails past its AccumulatedCopySizeLimit.
 */
import type JsonPatchLib from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { badRequest, fail, failure, ok, type Result } from '@svc-apiserver/api';
import { lazyRequire } from '../lazy-module.js';

/** The library, loaded by the first JSON patch applied. */
const jsonPatchLibrary = lazyRequire<typeof JsonPatchLib>('fast-json-patch');

/** kube-apiserver's maxJSONPatchOperations. */
export const maxJsonPatchOperations = 10_000;

const operations = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/**
 * Whether a JSON pointer names a `__proto__` member or `constructor/prototype`: the library refuses those (following
 * them in an object that lacks them would reach Object.prototype), and its message names its own flags; kube
 * patches them as any member. Such patches are refused here with a message of the server's own.
 */
function namesPrototype(pointer: unknown): boolean {
  if (typeof pointer !== 'string') return false;
  const parts = pointer.split('/').map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~'));
  return parts.some((p, i) => p === '__proto__' || (p === 'prototype' && parts[i - 1] === 'constructor'));
}

/** The 422 of an operation that does not apply. */
function notApplied(why: string): Result<unknown> {
  return fail(failure('Invalid', 'the server rejected our request due to an error in our request', {
    causes: [{ reason: 'UnexpectedServerResponse', message: why }],
  }));
}

/**
 * Applies a JSON patch document to a copy of `target` (to `target` itself when it is `owned`: a private copy the
 * caller made, in slices when large); copies may add at most `copyLimitBytes` (JSON bytes).
 */
export function applyJsonPatch(target: unknown, patch: unknown, copyLimitBytes = 3 * 1024 * 1024, owned = false): Result<unknown> {
  if (!Array.isArray(patch)) {
    return fail(badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch'));
  }
  if (patch.length > maxJsonPatchOperations) {
    return fail(failure('RequestEntityTooLarge', `The allowed maximum operations in a JSON patch is ${maxJsonPatchOperations}, got ${patch.length}`));
  }
  for (const op of patch as unknown[]) {
    const o = op as { op?: unknown; path?: unknown };
    if (typeof op !== 'object' || op === null || typeof o.op !== 'string' || !operations.has(o.op)) {
      return fail(badRequest(`Unexpected kind: ${typeof o?.op === 'string' ? o.op : 'unknown'}`));
    }
    if (typeof o.path !== 'string') return fail(badRequest(`operation ${o.op} is missing path`));
  }
  const prototypePath = patch.findIndex((op) => namesPrototype((op as { path: string }).path) || namesPrototype((op as { from?: unknown }).from));
  if (prototypePath >= 0) {
    const op = patch[prototypePath] as { op: string; path: string };
    return notApplied(`operation ${prototypePath} (${op.op} ${op.path}): this server does not patch members named "__proto__" or "constructor/prototype"`);
  }
  try {
    const jsonPatchLib = jsonPatchLibrary();
    const ops = patch as Operation[];
    const own = owned ? target : structuredClone(target);
    if (!ops.some((op) => op.op === 'copy')) return ok(jsonPatchLib.applyPatch(own, ops, true, true, true).newDocument);
    let document = own;
    let copied = 0;
    for (let i = 0; i < ops.length; i++) {
      const op = ops[i]!;
      if (op.op === 'copy' && typeof op.from === 'string') {
        let value: unknown;
        try {
          value = jsonPatchLib.getValueByPointer(document, op.from);
        } catch {
          value = undefined;
        }
        copied += value === undefined ? 0 : (JSON.stringify(value)?.length ?? 0);
        if (copied > copyLimitBytes) {
          return notApplied(`Unable to complete the copy, the accumulated size increase of copy is ${copied}, exceeding the limit ${copyLimitBytes}`);
        }
      }
      document = jsonPatchLib.applyOperation(document, op, true, true, true, i).newDocument;
    }
    return ok(document);
  } catch (err) {
    return notApplied(err instanceof Error ? err.message.split('\n')[0]! : String(err));
  }
}
