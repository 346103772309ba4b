/**
 * What decoding a request body gives: the value, or the `Status` to answer (400 for a body kube-apiserver's
 * decoders refuse), with the duplicated keys found on the way, as kube-apiserver's strict decoding words them.
 */
import type { Fail, Ok, Status } from '@svc-apiserver/api';

/** A decode result; `duplicateFields` lists the duplicated keys, in document order, as kube-apiserver words them. */
export type DecodeResult = (Ok<unknown> & { readonly duplicateFields: readonly string[] }) | Fail<Status>;
