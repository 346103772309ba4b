/**
 * The resourceVersion table of document 1 (§Resource versions) for get, list and watch: the query parameters
 * `resourceVersion`, `resourceVersionMatch`, `limit`, `continue` and `sendInitialEvents` turned into how a read is
 * served, with kube-apiserver's validation (apimachinery's ValidateListOptions: a 422 Invalid on
 * `ListOptions.meta.<group>`; the etcd3 store's 400 for a continue token with a non-zero resourceVersion).
 */
import {
  badRequest, fail, invalid, ok, type FieldError, type Names, type Result, type Status,
} from '@svc-apiserver/api';

/** How a read is served. */
export type ReadMode =
  /** Most Recent: consistent with storage at the time of the request. */
  | { readonly kind: 'consistent' }
  /** Any: whatever the cache holds. */
  | { readonly kind: 'any' }
  /** Not older than the revision. */
  | { readonly kind: 'notOlderThan'; readonly revision: number }
  /** Exactly at the revision (410 when compacted). */
  | { readonly kind: 'exact'; readonly revision: number }
  /** The snapshot and position a continue token holds. */
  | { readonly kind: 'continue'; readonly token: string };

/** The list and watch query parameters that choose a read. */
export interface ReadParams {
  readonly resourceVersion?: string | undefined;
  readonly resourceVersionMatch?: string | undefined;
  /** 0 when unset. */
  readonly limit?: number;
  readonly continue?: string | undefined;
  /** undefined when the parameter is absent. */
  readonly sendInitialEvents?: boolean | undefined;
}

/** Parses a resourceVersion: undefined when unset, a number, or a 400 (etcd3 store's `invalid resource version`). */
export function parseResourceVersion(value: string | undefined): Result<number | undefined> {
  if (value === undefined || value === '') return ok(undefined);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) {
    return fail(badRequest(`invalid resource version: resourceVersion: Invalid value: ${JSON.stringify(value)}: strconv.ParseUint: parsing ${JSON.stringify(value)}: invalid syntax`));
  }
  return ok(Number(value));
}

/** 422 `ListOptions.meta.<group> "" is invalid: ...`, as NewInvalid prints ListOptions errors. */
export function invalidListOptions(names: Names, errors: readonly FieldError[]): Status {
  return invalid('ListOptions', { group: names.group('meta'), resource: '' }, '', errors);
}

const forbidden = (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail });
const notSupported = (field: string, value: string, supported: readonly string[]): FieldError => ({
  type: 'FieldValueNotSupported', field, badValue: value, detail: `supported values: ${supported.map((v) => JSON.stringify(v)).join(', ')}`,
});

/** ValidateListOptions for a list (not a watch). */
function listOptionErrors(p: ReadParams): FieldError[] {
  const errs: FieldError[] = [];
  const match = p.resourceVersionMatch ?? '';
  if (match !== '') {
    if ((p.resourceVersion ?? '') === '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if ((p.continue ?? '') !== '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && p.resourceVersion === '0') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (p.sendInitialEvents !== undefined) errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  return errs;
}

/** The read a list makes (document 1's list table), or why it is invalid. */
export function listReadMode(names: Names, p: ReadParams): Result<ReadMode> {
  const errs = listOptionErrors(p);
  if (errs.length > 0) return fail(invalidListOptions(names, errs));
  const rv = parseResourceVersion(p.resourceVersion);
  if (!rv.ok) return rv;
  const limit = p.limit ?? 0;
  const match = p.resourceVersionMatch ?? '';
  if ((p.continue ?? '') !== '') {
    // rv=0 with a token is "Invalid, treated as Continue Token, Exact"; any other value is a 400.
    if (rv.value !== undefined && rv.value !== 0) {
      return fail(badRequest('specifying resource version is not allowed when using continue'));
    }
    return ok({ kind: 'continue', token: p.continue! });
  }
  if (rv.value === undefined) return ok({ kind: 'consistent' });
  if (rv.value === 0) return ok({ kind: 'any' });
  if (match === 'Exact' || (match === '' && limit > 0)) return ok({ kind: 'exact', revision: rv.value });
  return ok({ kind: 'notOlderThan', revision: rv.value });
}

/** How a watch starts. */
export type WatchMode =
  /** Synthetic ADDED events for the state at the read, then changes after it. */
  | { readonly kind: 'state'; readonly read: ReadMode; readonly initialEventsEnd: boolean }
  /** Changes after the revision (Start at Exact; for WatchList without initial events, after the read). */
  | { readonly kind: 'after'; readonly read: ReadMode };

/** validateWatchOptions plus the watch rows of the table. */
export function watchMode(names: Names, p: ReadParams, watchListEnabled: boolean): Result<WatchMode> {
  const errs: FieldError[] = [];
  const match = p.resourceVersionMatch ?? '';
  if (p.sendInitialEvents !== undefined) {
    if (match !== 'NotOlderThan') errs.push(forbidden('resourceVersionMatch', 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    if (!watchListEnabled) errs.push(forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled'));
  }
  if (match !== '') {
    if (p.sendInitialEvents === undefined) errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
    if (match !== 'NotOlderThan') errs.push(notSupported('resourceVersionMatch', match, ['NotOlderThan']));
    if ((p.continue ?? '') !== '') errs.push(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
  }
  if (errs.length > 0) return fail(invalidListOptions(names, errs));
  const rv = parseResourceVersion(p.resourceVersion);
  if (!rv.ok) return rv;
  const read: ReadMode = rv.value === undefined ? { kind: 'consistent' } : rv.value === 0 ? { kind: 'any' } : { kind: 'notOlderThan', revision: rv.value };
  if (p.sendInitialEvents === true) return ok({ kind: 'state', read, initialEventsEnd: true });
  if (p.sendInitialEvents === false) return ok({ kind: 'after', read });
  if (rv.value === undefined || rv.value === 0) return ok({ kind: 'state', read, initialEventsEnd: false });
  return ok({ kind: 'after', read: { kind: 'exact', revision: rv.value } });
}
