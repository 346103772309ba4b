/** The 404 of a path the server does not serve, in kube-apiserver's words and shape (`details: {}`). */
import { failure, type Status } from '@svc-apiserver/api';

/** 404 `the server could not find the requested resource`. */
export function notFoundPath(): Status {
  return failure('NotFound', 'the server could not find the requested resource', {});
}
