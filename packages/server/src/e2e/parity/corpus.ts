/**
 * The parity corpus's shape: per kind, objects and writes with the answer kube-apiserver 1.27 gives them (status
 * code, reason, the field paths of the causes, values the stored object must hold). Each case is data; the names a
 * flavour renames come from the naming table, so one corpus runs against both flavours.
 */
import type { Names } from '@svc-apiserver/api';

/** The resource a case writes to. `groupKey` is the neutral group key (`''` core, `apps`, `storage`). */
export interface ResourceRef {
  readonly groupKey: string;
  readonly version: string;
  readonly resource: string;
  readonly kind: string;
  readonly namespaced: boolean;
  /** A virtual kind (reviews): objects are sent without a name and not stored. */
  readonly virtual?: boolean;
}

/** What the server must answer. */
export interface Expectation {
  readonly code: number;
  /** The Status reason of a failure (`Invalid`, `BadRequest`, `Conflict`, ...). */
  readonly reason?: string;
  /** The field paths of `details.causes`, in any order (an Invalid answer must name exactly these). */
  readonly causes?: readonly string[];
  /** Substrings the Status message must contain. */
  readonly message?: readonly string[];
  /** Values the answered object must hold, by dotted path (`spec.replicas`; `[0]` indexes a list). */
  readonly values?: Readonly<Record<string, unknown>>;
  /** Substrings string values at these dotted paths must contain. */
  readonly contains?: Readonly<Record<string, string>>;
  /** Texts that must each be one of the answer's `Warning` headers (`299 - "<text>"`). */
  readonly warnings?: readonly string[];
  /** Dotted paths the answered object must not hold. */
  readonly absent?: readonly string[];
}

/** One write of a case. `object` bodies get apiVersion, kind, name and namespace filled in. */
export type Step =
  | { readonly op: 'create'; readonly object: Record<string, unknown>; readonly query?: string; readonly expect: Expectation }
  /** GET the object, apply `merge` to it as a JSON merge patch on the client, PUT the result. */
  | { readonly op: 'update'; readonly merge: Record<string, unknown>; readonly subresource?: string; readonly query?: string; readonly expect: Expectation }
  | {
    readonly op: 'patch'; readonly type: 'merge' | 'strategic' | 'json' | 'apply'; readonly body: unknown; readonly subresource?: string;
    readonly query?: string; readonly expect: Expectation;
  }
  | { readonly op: 'get'; readonly expect: Expectation }
  /** Create a minimal Pod named as the case's object (for kinds that act on a pod, such as Binding). */
  | { readonly op: 'pod'; readonly expect: Expectation }
  /** GET the collection. */
  | { readonly op: 'list'; readonly expect: Expectation }
  /** POST a Binding of the (pod) object to the node `target` through its `binding` subresource. */
  | { readonly op: 'binding'; readonly target: string; readonly expect: Expectation };

/** One case: a named sequence of writes on one object of one resource. */
export interface ParityCase {
  readonly name: string;
  readonly resource: ResourceRef;
  readonly steps: readonly Step[];
}

/** A corpus file: the cases of one group (or kind), for a flavour's names. */
export type CorpusFile = (names: Names) => readonly ParityCase[];

/** A core (`v1`) resource. */
export function core(resource: string, kind: string, namespaced = true): ResourceRef {
  return { groupKey: '', version: 'v1', resource, kind, namespaced };
}

/** A resource of a named group (neutral group key). */
export function grouped(groupKey: string, version: string, resource: string, kind: string, namespaced = true): ResourceRef {
  return { groupKey, version, resource, kind, namespaced };
}

/** A virtual (create-only, unnamed) resource of a named group. */
export function review(groupKey: string, version: string, resource: string, kind: string): ResourceRef {
  return { groupKey, version, resource, kind, namespaced: false, virtual: true };
}

/** A 201 answer holding `values`. */
export function created(values: Readonly<Record<string, unknown>> = {}, absent: readonly string[] = []): Expectation {
  return { code: 201, values, absent };
}

/** A 200 answer holding `values`. */
export function ok(values: Readonly<Record<string, unknown>> = {}, absent: readonly string[] = []): Expectation {
  return { code: 200, values, absent };
}

/** A 422 Invalid answer with exactly these cause fields (and message parts). */
export function invalid(causes: readonly string[], message: readonly string[] = []): Expectation {
  return { code: 422, reason: 'Invalid', causes, message };
}

/** The common shape of a case: create a valid object, update it validly, then a rejected update. */
export function lifecycle(
  name: string, resource: ResourceRef, object: Record<string, unknown>,
  update: { merge: Record<string, unknown>; expect?: Expectation },
  rejected: { merge: Record<string, unknown>; causes: readonly string[]; message?: readonly string[] },
  createdValues: Readonly<Record<string, unknown>> = {},
): ParityCase {
  return {
    name, resource,
    steps: [
      { op: 'create', object, expect: created(createdValues) },
      { op: 'update', merge: update.merge, expect: update.expect ?? ok() },
      { op: 'update', merge: rejected.merge, expect: invalid(rejected.causes, rejected.message ?? []) },
    ],
  };
}

/** A case whose create is rejected. */
export function rejectedCreate(name: string, resource: ResourceRef, object: Record<string, unknown>, causes: readonly string[], message: readonly string[] = []): ParityCase {
  return { name, resource, steps: [{ op: 'create', object, expect: invalid(causes, message) }] };
}
