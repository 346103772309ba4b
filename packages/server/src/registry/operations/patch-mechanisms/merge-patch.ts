/** The JSON merge patch mechanism (`application/merge-patch+json`, RFC 7386; kube's jsonPatcher). */
import { badRequest } from '@svc-apiserver/api';
import { mergePatch } from '../../../patch/merge-patch.js';
import type { Outcome } from '../outcome.js';
import { patchOfStored, type PatchMechanism, type PatchTarget } from './patch-mechanism.js';

/** Merges the decoded patch `patch` into the stored object; a patch that is not a JSON object is a 400 at once. */
export function mergePatchMechanism(target: PatchTarget, patch: unknown): Outcome<PatchMechanism> {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
    return { ok: false, status: badRequest('json: cannot unmarshal array into Go value of type map[string]interface {}') };
  }
  return { ok: true, value: patchOfStored(target, (current) => ({ ok: true, value: mergePatch(current, patch) })) };
}
