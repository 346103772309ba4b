/**
 * The result of a registry operation step: its value, or the Status the client sees (the shape of the handlers'
 * `Outcome`, kept here so the registry needs nothing from the HTTP layer).
 */
import type { Status } from '@svc-apiserver/api';

/** A value, or the failure a client sees. */
export type Outcome<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly status: Status };

/** A success. */
export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

/** A failure that is final for a write attempt: reading again would not change the answer. */
export function final(status: Status): { readonly ok: false; readonly status: Status; readonly conflict: false } {
  return { ok: false, status, conflict: false };
}
