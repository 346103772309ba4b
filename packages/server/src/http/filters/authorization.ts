/**
 * The authorization filter (k8s.io/apiserver's WithAuthorization): the authorizer union decides; anything but an
 * allow is 403 Forbidden with kube-apiserver's message form. The decision and its reason are audit annotations
 * (`authorization.svc.io/decision`: `allow` or `forbid`, `authorization.svc.io/reason`).
 */
import { failure, forbidden, type Names } from '@svc-apiserver/api';
import type { Authorizer } from '../../request/authorizer.js';
import type { Filter } from '../context.js';
import { addAuditAnnotation } from '../request-record.js';
import { writeStatus } from '../response-writer.js';

const keysByFlavour = new WeakMap<Names, { readonly decision: string; readonly reason: string }>();

/** The audit annotation keys of a flavour, made once rather than per request. */
function annotationKeys(names: Names): { readonly decision: string; readonly reason: string } {
  let keys = keysByFlavour.get(names);
  if (keys === undefined) {
    const group = names.group('authorization');
    keys = { decision: `${group}/decision`, reason: `${group}/reason` };
    keysByFlavour.set(names, keys);
  }
  return keys;
}

/** The authorization filter. */
export function authorization(authorizer: Authorizer): Filter {
  return async (ctx, next) => {
    const decision = await authorizer.authorize({ user: ctx.user, info: ctx.info });
    const keys = annotationKeys(ctx.names);
    addAuditAnnotation(ctx.record, keys.decision, decision.decision === 'allow' ? 'allow' : 'forbid');
    if (decision.reason) addAuditAnnotation(ctx.record, keys.reason, decision.reason);
    if (decision.decision === 'allow') {
      await next();
      return;
    }
    const { info, user } = ctx;
    const why = decision.reason ? `: ${decision.reason}` : '';
    if (info.isResourceRequest) {
      const scope = info.namespace ? ` in the namespace "${info.namespace}"` : ' at the cluster scope';
      const resource = info.subresource ? `${info.resource}/${info.subresource}` : info.resource;
      writeStatus(ctx, forbidden({ group: info.apiGroup, resource }, info.name,
        `User "${user.username}" cannot ${info.verb} resource "${resource}" in API group "${info.apiGroup}"${scope}${why}`));
    } else {
      writeStatus(ctx, failure('Forbidden', `forbidden: User "${user.username}" cannot ${info.verb} path "${info.path}"${why}`));
    }
  };
}
