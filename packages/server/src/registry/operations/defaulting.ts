/**
 * Defaulting: a kind's `SetDefaults_*` (its strategy's `defaults`, a custom resource's schema defaults) applied
 * where kube-apiserver 1.27 applies them, which decides who owns the defaulted fields.
 *
 * In kube defaulting is part of decoding (the codec defaults every object it decodes into a versioned type), not
 * of the strategy, so it sits before admission and before the field manager compares the old and new objects:
 *
 * - create (`create.go`): the body is decoded and defaulted → the field manager's `Update` against an empty object
 *   → mutating admission → the store's BeforeCreate (PrepareForCreate, validation) → validating admission → write.
 * - update (`update.go`): the body is decoded and defaulted → in the store's GuaranteedUpdate, per attempt: the
 *   field manager's `Update` against the live object → mutating admission → BeforeUpdate (PrepareForUpdate,
 *   validation) → validating admission → write.
 * - JSON patch and merge patch (`patch.go`): the patched JSON is decoded into the versioned type, which defaults
 *   it; strategic merge patch converts the patched map and calls the defaulter itself ("decoding from JSON to a
 *   versioned object would apply defaults, so we do the same here"). Then the field manager's `Update`, mutating
 *   admission and the store's BeforeUpdate, as for an update.
 * - server-side apply (`patch.go`'s applyPatcher, the field manager's `Apply`): the configuration is not defaulted;
 *   the structured merge decides ownership from the fields the applier sent, and only then is the merged object
 *   defaulted. So an applier owns what it sent, never a default it did not send, and a field another manager's
 *   create or update had defaulted stays that manager's: applying a different value conflicts (409).
 * - reads: objects decoded from storage are defaulted too, so a default added later shows on objects stored before
 *   it. Here custom resources are (`registry/reader.ts`: their schemas change while the server runs); built-in
 *   objects are served as the bytes they were stored with, which this server always wrote defaulted.
 * - mutating webhooks: their patched object is decoded, so defaulted, again.
 *
 * The handlers default decoded bodies and patch results before field management (create, update and the patch
 * mechanisms); the server's own writes (controllers, post-start hooks) are defaulted before theirs
 * (`field-management.ts`), as kube's codec defaults what their clients send; and the write path defaults again
 * after mutating admission, which stands for kube's defaulting of a webhook's answer. Defaulting only sets what is
 * unset, so an object defaulted on decode is left as it is.
 */
import type { KubeObject } from '@svc-apiserver/api';
import type { ResourceDef } from '../resource-def.js';
import type { Steps } from '../../limits/turn-budget.js';

/** Applies `def`'s kind defaults to `object` in place (kube's scheme defaulter, run on decode). */
export function applyKindDefaults(def: ResourceDef, object: KubeObject): void {
  def.strategy.defaults?.(object);
}

/** {@link applyKindDefaults} in steps, where the kind's defaulting has steps (limits/turn-budget.ts). */
export function* applyKindDefaultsSteps(def: ResourceDef, object: KubeObject): Steps<void> {
  if (def.strategy.defaultsSteps !== undefined) yield* def.strategy.defaultsSteps(object);
  else applyKindDefaults(def, object);
}
