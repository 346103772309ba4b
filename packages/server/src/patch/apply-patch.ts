/**
 * Patch dispatch by media type: JSON merge patch, JSON patch and strategic merge patch, plus the checks on a
 * server-side apply body (`application/apply-patch+yaml`, JSON or YAML): no managedFields in it, the endpoint's
 * apiVersion and kind, and every field declared by the schema (the merge itself is in apply/).
 */
import {
  apiVersionOf, badRequest, failure, unsupportedMediaType, type FieldError, type KubeObject, type Status,
} from '@svc-apiserver/api';
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
/** `application/apply-patch+yaml`: server-side apply. */
export const applyPatchType = 'application/apply-patch+yaml';
/** The patch media types served. */
export const supportedPatchTypes: readonly string[] = [jsonPatchType, mergePatchType, strategicMergePatchType, applyPatchType];

/** The endpoint an apply goes to, for its checks. */
export interface ApplyTarget {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

/**
 * The checks kube-apiserver's field manager makes on an apply body before merging: `metadata.managedFields` must
 * be absent (400), the apiVersion must be the endpoint's (400 `Incorrect version specified in apply patch`), and so
 * must the kind.
 */
export function checkApplyConfiguration(target: ApplyTarget, config: KubeObject): { readonly ok: true } | { readonly ok: false; readonly status: Status } {
  const expected = apiVersionOf(target.group, target.version);
  const version = typeof config.apiVersion === 'string' ? config.apiVersion : '';
  if (version !== expected) {
    return { ok: false, status: badRequest(`Incorrect version specified in apply patch. Specified patch version: ${version}, expected: ${expected}`) };
  }
  if (config.kind !== target.kind) {
    // unstructured's GetKind: a kind that is no string reads as empty.
    const kind = typeof config.kind === 'string' ? config.kind : '';
    return { ok: false, status: badRequest(`the kind in the data (${kind}) does not match the expected kind (${target.kind}) of ${expected}`) };
  }
  const meta: unknown = config.metadata;
  if (typeof meta === 'object' && meta !== null && 'managedFields' in meta && (meta as { managedFields: unknown }).managedFields !== null) {
    return { ok: false, status: badRequest('metadata.managedFields must be nil') };
  }
  return { ok: true };
}

/**
 * The failure kube-apiserver 1.27 answers when an apply body does not fit the schema (an undeclared field, a wrong
 * type): structured-merge-diff's typed conversion error, surfaced as a 500 with no reason, at every field
 * validation level: `failed to create typed patch object (ns/name; apps/v1, Kind=Deployment): .spec.x: field not
 * declared in schema`.
 */
export function typedPatchFailure(target: ApplyTarget, unknownFields: readonly string[], typeErrors: readonly FieldError[]): Status | undefined {
  const problems = [
    ...typeErrors.map((e) => `.${e.field}: ${e.detail || 'wrong type'}`),
    ...unknownFields.map((f) => `.${f}: field not declared in schema`),
  ];
  if (problems.length === 0) return undefined;
  const gvk = `${target.group}/${target.version}, Kind=${target.kind}`;
  const joined = problems.length === 1 ? problems[0] : `errors:\n  ${problems.join('\n  ')}`;
  return failure('Unknown', `failed to create typed patch object (${target.namespace}/${target.name}; ${gvk}): ${joined}`, undefined, 500);
}

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
