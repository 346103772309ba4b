/**
 * The 404s of paths the server does not serve, as kube-apiserver 1.27 answers them: under `/api` and `/apis` a
 * Status (`the server could not find the requested resource`, `details: {}`); anywhere else the plain text of Go's
 * http.NotFound, which kube's last handler in the delegation chain calls — the one failure kube answers without a
 * Status.
 */
import { failure, type Status } from '@svc-apiserver/api';
import type { RequestContext } from '../context.js';
import { writeStatus, writeText } from '../response-writer.js';

/** 404 `the server could not find the requested resource`. */
export function notFoundPath(): Status {
  return failure('NotFound', 'the server could not find the requested resource', {});
}

/** True for paths of the API (`/api`, `/apis` and below). */
export function isApiPath(parts: readonly string[]): boolean {
  return parts[0] === 'api' || parts[0] === 'apis';
}

/** Answers 404 for an unserved path: a Status under the API, Go's `404 page not found` text elsewhere. */
export function writeNotFound(ctx: RequestContext): void {
  if (isApiPath(ctx.info.parts)) writeStatus(ctx, notFoundPath());
  else writeText(ctx, 404, '404 page not found\n');
}
