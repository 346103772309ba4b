/** The strategic merge patch mechanism (`application/strategic-merge-patch+json`; kube's smpPatcher). */
import { badRequest, fail, failure } from '@svc-apiserver/api';
import type { PatchSchema } from '../../../patch/patch-schema.js';
import { strategicMergePatch } from '../../../patch/strategic-merge-patch.js';
import { patchOfStored, type PatchMechanism, type PatchTarget } from './patch-mechanism.js';

/**
 * Applies the decoded patch `patch` to the stored object with `schema`'s list strategies and merge keys. A patch
 * that does not apply answers 422 (lists of lists) or 400: kube-apiserver answers some malformed strategic patches
 * with 500, a client's mistake is a 400 here.
 */
export function strategicMergePatchMechanism(target: PatchTarget, patch: unknown, schema: PatchSchema): PatchMechanism {
  return patchOfStored(target, (current, owned) => {
    const result = strategicMergePatch(current, patch, schema, owned);
    if (result.ok) return result;
    return fail(result.error.code === 422 ? failure('Invalid', result.error.message) : badRequest(result.error.message));
  });
}
