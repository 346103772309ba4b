/**
 * A patch mechanism (kube's patchMechanism in the patch handler): what one patch type makes of the stored object,
 * on every attempt of the write loop. Each patch type is one mechanism in its own file; the patch handler and the
 * scale subresource run one loop over whichever the request's Content-Type names. Checks that depend only on the
 * request (decoding the patch, the apply configuration's checks) run once, when the mechanism is made.
 */
import {
  badRequest, fail, notFound, ok, type KubeObject, type QualifiedResource, type Result,
} from '@svc-apiserver/api';
import { nestingTooDeepMessage, valueTooDeepSteps } from '../../../limits/nesting-depth.js';
import { runStepsYielding, yieldAfter, yieldIfSpent } from '../../../limits/turn-budget.js';
import { cloneYielding, holdsMoreMembers, sliceMembers } from '../../../limits/json-slices.js';

/** A patched object, with the warnings field validation gave on it (sent once, with the answer). */
export interface Patched {
  readonly object: KubeObject;
  readonly warnings: readonly string[];
}

/** One patch type's mechanism. */
export interface PatchMechanism {
  /** Whether a missing object is made from the patch alone (apply); the other patch types answer 404. */
  readonly createsMissing: boolean;
  /** The object the patch makes of `current` (undefined: nothing is stored). */
  next(current?: KubeObject): Promise<Result<Patched>>;
}

/** The object a patch names, for the 404 of a patch type that needs a stored object. */
export interface PatchTarget {
  readonly qualified: QualifiedResource;
  readonly name: string;
}

/**
 * The mechanism of a patch type that patches a stored object (JSON patch, merge patch, strategic merge patch:
 * kube's createNewObject answers 404 for them); the patched document must be an object, nested no deeper than
 * request data may be (400): a patch can add a deep value at a deep path, and what is stored must stay within what
 * every later walk over it can take. A large object is copied for the patch in slices of the event loop's turns
 * (limits/json-slices.ts) and `patch` gets the copy as `owned`, to change in place; a small one is copied by
 * `patch` as it needs. `patch` may work in steps that give the event loop back (a promise of its result).
 */
export function patchOfStored(
  target: PatchTarget,
  patch: (current: KubeObject, owned: boolean) => Result<unknown> | Promise<Result<unknown>>,
): PatchMechanism {
  return {
    createsMissing: false,
    async next(current) {
      if (current === undefined) return fail(notFound(target.qualified, target.name));
      const owned = holdsMoreMembers(current, sliceMembers);
      const own = owned ? await cloneYielding(current) : current;
      const patching = performance.now();
      const patched = await patch(own, owned);
      if (!patched.ok) return patched;
      // Patching a large object takes a turn's budget: the checks of the result start in the next
      // (limits/turn-budget.ts; a patch in steps has kept the turn's clock running since its last yield).
      await yieldIfSpent(patching);
      const object = patched.value;
      if (typeof object !== 'object' || object === null || Array.isArray(object)) {
        return fail(badRequest('the patched document is not an object'));
      }
      if (await runStepsYielding(valueTooDeepSteps(object))) return fail(badRequest(nestingTooDeepMessage('the patched object')));
      return ok({ object: object as KubeObject, warnings: [] });
    },
  };
}

/**
 * What a patch type other than apply does after patching (kube's patchers decode the result, which defaults it, then
 * record the Update: the patch's manager owns what defaulting filled in).
 */
export interface UpdateSteps {
  /** Decoding of the patched object (type meta, schema, field validation): its warnings, or the failure. */
  check(object: KubeObject): Result<readonly string[]>;
  /** The kind's defaults, applied to the decoded object in place (kube's decoding defaults: defaulting.ts). */
  defaults(object: KubeObject): void;
  /** The object with managedFields updated for the patch's field manager (`current` undefined: it creates). */
  track(current: KubeObject | undefined, object: KubeObject): KubeObject | Promise<KubeObject>;
}

/** `mechanism` followed by the decoding and managedFields steps of an update. */
export function withUpdateSteps(mechanism: PatchMechanism, steps: UpdateSteps): PatchMechanism {
  return {
    createsMissing: mechanism.createsMissing,
    async next(current) {
      const patched = await mechanism.next(current);
      if (!patched.ok) return patched;
      const checking = performance.now();
      const checked = steps.check(patched.value.object);
      if (!checked.ok) return checked;
      await yieldAfter(checking);
      steps.defaults(patched.value.object);
      return ok({ object: await steps.track(current, patched.value.object), warnings: [...patched.value.warnings, ...checked.value] });
    },
  };
}
