/**
 * The authorization filter (k8s.io/apiserver's WithAuthorization): the authorizer union decides; anything but an
 * allow is 403 Forbidden with kube-apiserver's message form. The decision and its reason are audit annotations
 * (`authorization.svc.io/decision`: `allow` or `forbid`, `authorization.svc.io/reason`).
 */
import { failure, forbidden } from '@svc-apiserver/api';
import type { Authorizer } from '../../request/authorizer.js';
import type { Filter } from '../context.js';
import { addAuditAnnotation } from '../request-record.js';
import { writeStatus } from '../response-writer.js';

/** The authorization filter. */
export function authorization(authorizer: Authorizer): Filter {
  return async (ctx, next) => {
    const decision = await authorizer.authorize({ user: ctx.user, info: ctx.info });
    const group = ctx.names.group('authorization');
    addAuditAnnotation(ctx.record, `${group}/decision`, decision.decision === 'allow' ? 'allow' : 'forbid');
    if (decision.reason) addAuditAnnotation(ctx.record, `${group}/reason`, decision.reason);
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
