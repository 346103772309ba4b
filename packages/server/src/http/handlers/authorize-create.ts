/**
 * The extra `create` check of a write that turns out to create (kube-apiserver's withAuthorization decorator of the
 * create validation in the patch and update handlers): the request itself was authorized for its own verb
 * (`patch`); creating the object needs `create` on the same resource, namespace and name too. Anything but an
 * allow is 403 Forbidden in kube's wording for this path (`<resource> "<name>" is forbidden: <reason>`).
 */
import { forbidden, type Result } from '@svc-apiserver/api';
import type { Authorizer } from '../../request/authorizer.js';
import type { RequestContext } from '../context.js';
import type { ResourceDef } from '../../registry/resource-def.js';

/** Asks the authorizer whether the request's user may create the object the request names. */
export async function authorizeCreate(ctx: RequestContext, authorizer: Authorizer, def: ResourceDef): Promise<Result<void>> {
  // Same request, as a create of the main resource (apply creates only there).
  const info = { ...ctx.info, verb: 'create', subresource: '' };
  const decision = await authorizer.authorize({ user: ctx.user, info });
  if (decision.decision === 'allow') return { ok: true, value: undefined };
  return { ok: false, error: forbidden(def.qualified, info.name, decision.reason ?? '') };
}
