/**
 * Patch dispatch by media type: merge patch and JSON patch are applied here; strategic merge patch and server-side
 * apply come with a later issue (415 until then).
 */
import { badRequest, unsupportedMediaType, type KubeObject, type Status } from '@svc-apiserver/api';
import { applyJsonPatch } from './json-patch.js';
import { mergePatch } from './merge-patch.js';

/** `application/json-patch+json`. */
export const jsonPatchType = 'application/json-patch+json';
/** `application/merge-patch+json`. */
export const mergePatchType = 'application/merge-patch+json';
/** The patch media types served now. */
export const supportedPatchTypes: readonly string[] = [jsonPatchType, mergePatchType];

/** The patched object, or why not. */
export type PatchResult = { readonly ok: true; readonly value: KubeObject } | { readonly ok: false; readonly status: Status };

/** Applies a decoded patch document of `mediaType` to `original`. */
export function applyPatch(mediaType: string, original: KubeObject, patch: unknown): PatchResult {
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
  } else {
    return { ok: false, status: unsupportedMediaType(supportedPatchTypes) };
  }
  if (typeof patched !== 'object' || patched === null || Array.isArray(patched)) {
    return { ok: false, status: badRequest('the patched document is not an object') };
  }
  return { ok: true, value: patched as KubeObject };
}
