/** The mechanism of each patch type other than apply, by media type (the switch of kube's patchResource). */
import { fail, ok, unsupportedMediaType, type Result } from '@svc-apiserver/api';
import { jsonPatchType, mergePatchType, strategicMergePatchType } from '../../../patch/apply-patch.js';
import type { PatchSchema } from '../../../patch/patch-schema.js';
import { jsonPatchMechanism } from './json-patch.js';
import { mergePatchMechanism } from './merge-patch.js';
import type { PatchMechanism, PatchTarget } from './patch-mechanism.js';
import { strategicMergePatchMechanism } from './strategic-merge-patch.js';

/** The patch media types that patch a stored object. */
export const storedObjectPatchTypes: readonly string[] = [jsonPatchType, mergePatchType, strategicMergePatchType];

/**
 * The mechanism for the decoded patch document `patch` of media type `patchType`; `schema` gives strategic merge
 * patch its list strategies and merge keys. 415 for a media type that is not one of {@link storedObjectPatchTypes}.
 */
export function patchMechanismFor(patchType: string, target: PatchTarget, patch: unknown, schema: PatchSchema): Result<PatchMechanism> {
  if (patchType === jsonPatchType) return ok(jsonPatchMechanism(target, patch));
  if (patchType === mergePatchType) return mergePatchMechanism(target, patch);
  if (patchType === strategicMergePatchType) return ok(strategicMergePatchMechanism(target, patch, schema));
  return fail(unsupportedMediaType(storedObjectPatchTypes));
}
