/**
 * The patch media types, plus the checks on a server-side apply body (`application/apply-patch+yaml`, JSON or
 * YAML): no managedFields in it, the endpoint's apiVersion and kind, and every field declared by the schema (the
 * merge itself is in apply/; each patch type's mechanism is in registry/operations/patch-mechanisms/).
 */
import {
  apiVersionOf, badRequest, fail, failure, ok, type FieldError, type KubeObject, type Result, type Status,
} from '@svc-apiserver/api';

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
export function checkApplyConfiguration(target: ApplyTarget, config: KubeObject): Result<undefined> {
  const expected = apiVersionOf(target.group, target.version);
  const version = typeof config.apiVersion === 'string' ? config.apiVersion : '';
  if (version !== expected) {
    return fail(badRequest(`Incorrect version specified in apply patch. Specified patch version: ${version}, expected: ${expected}`));
  }
  if (config.kind !== target.kind) {
    // unstructured's GetKind: a kind that is no string reads as empty.
    const kind = typeof config.kind === 'string' ? config.kind : '';
    return fail(badRequest(`the kind in the data (${kind}) does not match the expected kind (${target.kind}) of ${expected}`));
  }
  const meta: unknown = config.metadata;
  if (typeof meta === 'object' && meta !== null && 'managedFields' in meta && (meta as { managedFields: unknown }).managedFields !== null) {
    return fail(badRequest('metadata.managedFields must be nil'));
  }
  return ok();
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
