/**
 * The one result type of the project: a step that can fail returns its value or its error instead of throwing
 * (throwing is for bugs), as apimachinery's functions return `(value, err)`. The error is the Kubernetes `Status`
 * a client sees unless a step says otherwise (a flag parser's message, a storage error code).
 */
import type { Status } from './status.js';

/** A success and its value. */
export interface Ok<T> {
  readonly ok: true;
  readonly value: T;
}

/** A failure and its error. */
export interface Fail<E> {
  readonly ok: false;
  readonly error: E;
}

/** A value, or the error the step failed with (by default the `Status` the client sees). */
export type Result<T, E = Status> = Ok<T> | Fail<E>;

/** A success. */
export function ok(): Ok<undefined>;
export function ok<T>(value: T): Ok<T>;
export function ok<T>(value?: T): Ok<T | undefined> {
  return { ok: true, value };
}

/** A failure. */
export function fail<E>(error: E): Fail<E> {
  return { ok: false, error };
}
