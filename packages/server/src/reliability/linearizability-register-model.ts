/**
 * The sequential specification of one stored object as kube-apiserver serves it: a register with versions and
 * compare-and-swap. Each write gives the object a new resourceVersion, greater than every one it had before (etcd's
 * mod revision); a read without a resourceVersion returns the latest value with its resourceVersion; an update or a
 * delete with a resourceVersion precondition succeeds only against that version (409 Conflict otherwise); a create
 * fails with 409 AlreadyExists on an existing object; updates and patches of a missing object are 404; server-side
 * apply creates a missing object (201) and updates an existing one (200); unconditional writes never conflict
 * (kube-apiserver retries its own compare-and-swap, GuaranteedUpdate).
 *
 * Values are opaque strings: the harness gives every write a value no other write has, so a read names the write it
 * saw. A write without an answer may or may not have happened; when it did, its resourceVersion is unknown until a
 * read shows it. A successful delete's answer (a Status) carries no resourceVersion.
 */
import type { SequentialModel } from './linearizability-checker.js';

/** What a client asked of one object. */
export type RegisterInput =
  /** GET (or one item of a consistent LIST). */
  | { readonly kind: 'read' }
  /** POST. */
  | { readonly kind: 'create'; readonly value: string }
  /**
   * PUT, PATCH or server-side apply: `mustExist` false only for apply, which creates; `expectedRv` when the request
   * carried `metadata.resourceVersion` (a precondition).
   */
  | { readonly kind: 'write'; readonly value: string; readonly mustExist: boolean; readonly expectedRv?: number }
  /** DELETE, with `preconditions.resourceVersion` when `expectedRv` is set. */
  | { readonly kind: 'delete'; readonly expectedRv?: number };

/** What the server answered (or `unknown` when no definitive answer came). */
export type RegisterOutput =
  | { readonly kind: 'found'; readonly rv: number; readonly value: string }
  | { readonly kind: 'absent' }
  /** A create or write succeeded at `rv`; `created` tells a 201 from a 200 for apply. */
  | { readonly kind: 'written'; readonly rv: number; readonly created: boolean }
  | { readonly kind: 'deleted' }
  /** 409 AlreadyExists. */
  | { readonly kind: 'exists' }
  /** 404 NotFound. */
  | { readonly kind: 'notFound' }
  /** 409 Conflict. */
  | { readonly kind: 'conflict' }
  /** No answer, a 5xx or a 429: the operation may or may not have taken effect. */
  | { readonly kind: 'unknown' };

/** The object as the model knows it. */
export type RegisterState =
  | { readonly exists: false; readonly floor: number }
  /** `rv` is undefined after a write whose answer never came, until a read shows it. */
  | { readonly exists: true; readonly rv: number | undefined; readonly value: string; readonly floor: number };

const absent = (floor: number): RegisterState => ({ exists: false, floor });
const present = (value: string, rv: number | undefined, floor: number): RegisterState => ({ exists: true, rv, value, floor });

/** True when a write with this precondition may apply to `state` (an unknown version matches no precondition). */
function preconditionHolds(state: RegisterState, expectedRv: number | undefined): boolean {
  return state.exists && (expectedRv === undefined || state.rv === expectedRv);
}

/** The states a write of `input` leaves when it succeeds at `rv` (undefined: version not known). */
function written(state: RegisterState, input: RegisterInput, rv: number | undefined, created: boolean | undefined): RegisterState[] {
  // Every write moves the object's version past every version it had.
  if (rv !== undefined && rv <= state.floor) return [];
  const floor = rv ?? state.floor;
  switch (input.kind) {
    case 'read':
      return [];
    case 'create':
      return state.exists || created === false ? [] : [present(input.value, rv, floor)];
    case 'write':
      if (!state.exists) {
        // Only apply creates, and never under a precondition.
        if (input.mustExist || input.expectedRv !== undefined || created === false) return [];
        return [present(input.value, rv, floor)];
      }
      if (created === true || !preconditionHolds(state, input.expectedRv)) return [];
      return [present(input.value, rv, floor)];
    case 'delete':
      return preconditionHolds(state, input.expectedRv) ? [absent(floor)] : [];
  }
}

/** One step of the register. */
export function registerStep(state: RegisterState, input: RegisterInput, output: RegisterOutput): RegisterState[] {
  switch (output.kind) {
    case 'found':
      if (input.kind !== 'read' || !state.exists || state.value !== output.value) return [];
      if (state.rv === output.rv) return [state];
      // A read is how a write without an answer shows its version.
      return state.rv === undefined && output.rv > state.floor ? [present(state.value, output.rv, output.rv)] : [];
    case 'absent':
      return input.kind === 'read' && !state.exists ? [state] : [];
    case 'written':
      if (input.kind !== 'create' && input.kind !== 'write') return [];
      return written(state, input, output.rv, output.created);
    case 'deleted':
      return input.kind === 'delete' ? written(state, input, undefined, undefined) : [];
    case 'exists':
      return input.kind === 'create' && state.exists ? [state] : [];
    case 'notFound':
      if (input.kind === 'delete') return state.exists ? [] : [state];
      return input.kind === 'write' && input.mustExist && !state.exists ? [state] : [];
    case 'conflict':
      if (input.kind !== 'write' && input.kind !== 'delete') return [];
      return state.exists && input.expectedRv !== undefined && state.rv !== input.expectedRv ? [state] : [];
    case 'unknown':
      // Reads without an answer tell nothing; writes may have happened or not.
      return input.kind === 'read' ? [state] : [state, ...written(state, input, undefined, undefined)];
  }
}

function stateKey(state: RegisterState): string {
  return state.exists ? `+${state.rv ?? '?'}:${state.floor}:${state.value}` : `-${state.floor}`;
}

function describe(input: RegisterInput, output: RegisterOutput): string {
  const pre = 'expectedRv' in input && input.expectedRv !== undefined ? ` if rv=${input.expectedRv}` : '';
  const inText =
    input.kind === 'read'
      ? 'read'
      : input.kind === 'create'
        ? `create ${input.value}`
        : input.kind === 'write'
          ? `${input.mustExist ? 'write' : 'apply'} ${input.value}${pre}`
          : `delete${pre}`;
  const outText =
    output.kind === 'found'
      ? `found ${output.value}@${output.rv}`
      : output.kind === 'written'
        ? `${output.created ? 'created' : 'written'}@${output.rv}`
        : output.kind;
  return `${inText} -> ${outText}`;
}

/** The register model for {@link checkLinearizability}: every object starts absent. */
export const registerModel: SequentialModel<RegisterState, RegisterInput, RegisterOutput> = {
  init: () => absent(0),
  step: registerStep,
  key: stateKey,
  describe,
};
