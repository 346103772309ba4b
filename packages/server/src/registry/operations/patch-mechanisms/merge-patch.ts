/** The JSON merge patch mechanism (`application/merge-patch+json`, RFC 7386; kube's jsonPatcher). */
import { badRequest, fail, ok, type Result } from '@svc-apiserver/api';
import { mergePatch } from '../../../patch/merge-patch.js';
import { patchOfStored, type PatchMechanism, type PatchTarget } from './patch-mechanism.js';

/** Merges the decoded patch `patch` into the stored object; a patch that is not a JSON object is a 400 at once. */
export function mergePatchMechanism(target: PatchTarget, patch: unknown): Result<PatchMechanism> {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
    return fail(badRequest('json: cannot unmarshal array into Go value of type map[string]interface {}'));
  }
  return ok(patchOfStored(target, (current, owned) => (ok(mergePatch(current, patch, owned)))));
}
