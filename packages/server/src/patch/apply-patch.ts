/**
 * Patch dispatch by media type: JSON merge patch, JSON patch and strategic merge patch. Server-side apply comes
 * with a later issue (415 until then).
 */
import { badRequest, failure, unsupportedMediaType, type KubeObject, type Status } from '@svc-apiserver/api';
import { applyJsonPatch } from './json-patch.js';
import { mergePatch } from './merge-patch.js';
import type { PatchSchema } from './patch-schema.js';
import { strategicMergePatch } from './strategic-merge-patch.js';

/** `application/json-patch+json`. */
export const jsonPatchType = 'application/json-patch+json';
/** `application/merge-patch+json`. */
export const mergePatchType = 'application/merge-patch+json';
/** `application/strategic-merge-patch+json`. */
export const strategicMergePatchType = 'application/strategic-merge-patch+json';
/** The patch media types served now. */
export const supportedPatchTypes: readonly string[] = [jsonPatchType, mergePatchType, strategicMergePatchType];

/** The patched object, or why not. */
export type PatchResult = { readonly ok: true; readonly value: KubeObject } | { readonly ok: false; readonly status: Status };

/**
 * Applies a decoded patch document of `mediaType` to `original`; `schema` gives strategic merge patch its list
 * strategies and merge keys.
 */
export function applyPatch(mediaType: string, original: KubeObject, patch: unknown, schema: PatchSchema): PatchResult {
  let patched: unknown;
  if (mediaType === mergePatchType) {
    if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
      return { ok: false, status: badRequest('json: cannot unmarshal array into Go value of type map[string]interface {}') };
    }
    patched = mergePatch(original, patch);
  } else if (mediaType === jsonPatchType) {
    const result = applyJsonPatch(original, patch);
    if (!result.ok) return result;
    patched = result.value;
  } else if (mediaType === strategicMergePatchType) {
    const result = strategicMergePatch(original, patch, schema);
    // kube-apiserver answers some malformed strategic patches with 500; a client mistake is a 400 here.
    if (!result.ok) return { ok: false, status: result.code === 422 ? failure('Invalid', result.message) : badRequest(result.message) };
    patched = result.value;
  } else {
    return { ok: false, status: unsupportedMediaType(supportedPatchTypes) };
  }
  if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
    return { ok: false, status: badRequest('the patched document is not an object') };
  }
  return { ok: true, value: patched as KubeObject };
}
