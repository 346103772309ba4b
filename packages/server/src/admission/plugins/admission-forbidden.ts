/**
 * The 403 an admission plugin answers with (k8s.io/apiserver admission.NewForbidden): the resource of the request
 * and the object's name, or its `generateName` before a name was generated, or `Unknown`.
 */
import { forbidden, type Status } from '@svc-apiserver/api';
import type { AdmissionAttributes } from '../plugin.js';

/** `<resource> "<name>" is forbidden: <why>`. */
export function admissionForbidden(a: AdmissionAttributes, why: string): Status {
  const meta = a.object?.metadata;
  const name = a.name || meta?.name || meta?.generateName || 'Unknown';
  return forbidden({ group: a.group, resource: a.resource }, name, why);
}
