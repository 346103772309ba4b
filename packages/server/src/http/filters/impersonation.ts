/**
 * The impersonation filter (k8s.io/apiserver's WithImpersonation), after authentication: a request with
 * `Impersonate-*` headers is checked against the authorizer and continues as the impersonated user, with the
 * headers removed; a refused impersonation is 403 Forbidden naming what was refused.
 */
import type { Names } from '@svc-apiserver/api';
import type { Authorizer } from '../../request/authorizer.js';
import { impersonate, impersonationHeaderNames, mayImpersonate } from '../../auth/impersonation.js';
import type { Filter, RequestContext } from '../context.js';
import { writeStatus } from '../response-writer.js';

/** The impersonation filter. */
export function impersonation(authorizer: Authorizer, names: Names): Filter {
  // Most requests impersonate no one: they pass on without an async step of their own.
  return (ctx, next) => (mayImpersonate(ctx) ? impersonated(ctx, next, authorizer, names) : next());
}

/** A request with impersonation headers: checked, then served as the impersonated user, or refused. */
async function impersonated(ctx: RequestContext, next: () => Promise<void>, authorizer: Authorizer, names: Names): Promise<void> {
  const outcome = await impersonate(ctx, ctx.user, authorizer, names);
  if (outcome.kind === 'failure') {
    writeStatus(ctx, outcome.status);
    return;
  }
  if (outcome.kind === 'user') {
    const headers = ctx.headers as Record<string, unknown>;
    for (const h of impersonationHeaderNames(ctx)) delete headers[h];
    ctx.user = outcome.user;
  }
  await next();
}
