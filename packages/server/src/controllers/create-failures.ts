/**
 * Create failures a controller treats as done (kube's controllers skip them the same way): the object exists
 * already, or its namespace is missing or being terminated (the namespace controller is removing its content).
 */
import type { Status } from '@svc-apiserver/api';

/** True for AlreadyExists, a missing namespace, or a namespace being terminated. */
export function ignorableCreateFailure(status: Status): boolean {
  if (status.reason === 'AlreadyExists') return true;
  if (status.reason === 'NotFound' && status.details?.kind === 'namespaces') return true;
  return (status.details?.causes ?? []).some((c) => c.reason === 'NamespaceTerminating');
}
