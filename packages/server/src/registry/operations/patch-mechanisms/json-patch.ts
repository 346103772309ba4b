/** The JSON patch mechanism (`application/json-patch+json`, RFC 6902; kube's jsonPatcher). */
import { applyJsonPatch } from '../../../patch/json-patch.js';
import { patchOfStored, type PatchMechanism, type PatchTarget } from './patch-mechanism.js';

/** Applies the decoded JSON patch document `patch` to the stored object. */
export function jsonPatchMechanism(target: PatchTarget, patch: unknown): PatchMechanism {
  return patchOfStored(target, (current, owned) => applyJsonPatch(current, patch, undefined, owned));
}
