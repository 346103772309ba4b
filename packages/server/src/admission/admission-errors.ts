/**
 * The errors plugins answer with, worded as k8s.io/apiserver/pkg/admission's helpers word them: NewForbidden names
 * the request's resource and object (`pods "web" is forbidden: <why>`), taking the name from the object (or its
 * generateName) when the request has none yet.
 */
import { failure, forbidden, invalid, type FieldError, type Status } from '@svc-apiserver/api';
import type { AdmissionAttributes } from './plugin.js';

/** The name admission errors show (extractResourceName): the request's, the object's, its generateName, or `Unknown`. */
export function admissionName(a: AdmissionAttributes): string {
  if (a.name !== '') return a.name;
  const meta = a.object?.metadata;
  if (meta === undefined) return 'Unknown';
  return meta.name || meta.generateName || 'Unknown';
}

/** admission.NewForbidden: 403 for the request's resource and object. */
export function admissionForbidden(a: AdmissionAttributes, why: string): Status {
  return forbidden({ group: a.group, resource: a.resource }, admissionName(a), why);
}

/** apierrors.NewInvalid for the request's kind and object. */
export function admissionInvalid(a: AdmissionAttributes, errors: readonly FieldError[]): Status {
  return invalid(a.kind, { group: a.kindGroupVersion?.group ?? a.group, resource: a.resource }, admissionName(a), errors);
}

/** apierrors.NewInternalError: a failure of the server, not of the request. */
export function admissionInternalError(why: string): Status {
  return failure('InternalError', `Internal error occurred: ${why}`, { causes: [{ message: why }] });
}

/** Errors joined as utilerrors.NewAggregate prints them: one alone, several in brackets. */
export function aggregate(messages: readonly string[]): string {
  return messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
}
