/**
 * JSON patch (RFC 6902: add, remove, replace, move, copy, test) through `fast-json-patch`, with failures reported
 * the way kube-apiserver reports them: a malformed patch is a 400, an operation that does not apply (a failed
 * `test`, a missing path) a 422 naming the cause.
 */
import jsonPatchLib from 'fast-json-patch';
import type { Operation } from 'fast-json-patch';
import { badRequest, fail, failure, ok, type Result, type Status } from '@svc-apiserver/api';

const operations = new Set(['add', 'remove', 'replace', 'move', 'copy', 'test']);

/** Applies a JSON patch document to a copy of `target`. */
export function applyJsonPatch(target: unknown, patch: unknown): Result<unknown> {
  if (!Array.isArray(patch)) {
    return fail(badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch'));
  }
  for (const op of patch as unknown[]) {
    const o = op as { op?: unknown; path?: unknown };
    if (typeof op !== 'object' || op === null || typeof o.op !== 'string' || !operations.has(o.op)) {
      return fail(badRequest(`Unexpected kind: ${typeof o?.op === 'string' ? o.op : 'unknown'}`));
    }
    if (typeof o.path !== 'string') return fail(badRequest(`operation ${o.op} is missing path`));
  }
  try {
    const result = jsonPatchLib.applyPatch(structuredClone(target), patch as Operation[], true, true, true);
    return ok(result.newDocument);
  } catch (err) {
    const why = err instanceof Error ? err.message.split('\n')[0]! : String(err);
    return fail(failure('Invalid', 'the server rejected our request due to an error in our request', {
        causes: [{ reason: 'UnexpectedServerResponse', message: why }],
      }));
  }
}
