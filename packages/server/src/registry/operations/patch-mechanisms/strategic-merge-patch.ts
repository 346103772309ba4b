/** The strategic merge patch mechanism (`application/strategic-merge-patch+json`; kube's smpPatcher). */
import { badRequest, fail, failure } from '@svc-apiserver/api';
import type { PatchSchema } from '../../../patch/patch-schema.js';
import { runStepsYielding } from '../../../limits/turn-budget.js';
import { strategicMergePatchSteps } from '../../../patch/strategic-merge-patch.js';
import { patchOfStored, type PatchMechanism, type PatchTarget } from './patch-mechanism.js';

/**
 * Applies the decoded patch `patch` to the stored object with `schema`'s list strategies and merge keys, in steps
 * that give the event loop back when a long list takes a turn's budget (a small patch runs in one go). A patch
 * that does not apply answers 422 (lists of lists) or 400: kube-apiserver answers some malformed strategic patches
 * with 500, a client's mistake is a 400 here.
 */
export function strategicMergePatchMechanism(target: PatchTarget, patch: unknown, schema: PatchSchema): PatchMechanism {
  return patchOfStored(target, async (current, owned) => {
    const result = await runStepsYielding(strategicMergePatchSteps(current, patch, schema, owned));
    if (result.ok) return result;
    return fail(result.error.code === 422 ? failure('Invalid', result.error.message) : badRequest(result.error.message));
  });
}
