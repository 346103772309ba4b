/**
 * The values of admission expressions for one request (k8s.io/apiserver/pkg/admission/plugin/cel's
 * CreateAdmissionRequest and the authorizer binding): `object` and `oldObject` (null where the operation has none),
 * `request` as the AdmissionRequest a webhook would be sent without its objects, `authorizer` bound to the requesting
 * user through the server's authorizer, with `authorizer.requestResource` the resource being admitted, and `params`
 * when a policy binding names them.
 */
import type { KubeObject } from '@svc-apiserver/api';
import type { Authorizer } from '../../request/authorizer.js';
import type { UserInfo } from '../../request/user-info.js';
import type { CelAuthorizer } from '../../cel/cel-authorizer.js';
import { AuthorizerValue } from '../../cel/library-authz.js';
import type { AdmissionAttributes } from '../plugin.js';

/** The resource and kind the expressions see (the invocation's, for a request matched through an equivalent resource). */
export interface ExpressionTarget {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly subresource: string;
  readonly kind: { readonly group: string; readonly version: string; readonly kind: string };
}

/** The target of a request as it arrived. */
export function requestTarget(a: AdmissionAttributes): ExpressionTarget {
  return {
    group: a.group, version: a.version, resource: a.resource, subresource: a.subresource,
    kind: { group: a.kindGroupVersion?.group ?? a.group, version: a.kindGroupVersion?.version ?? a.version, kind: a.kind },
  };
}

/** `request`: the AdmissionRequest of the attributes, without its objects. */
export function admissionRequestValue(a: AdmissionAttributes, target: ExpressionTarget = requestTarget(a)): Record<string, unknown> {
  const original = requestTarget(a);
  return {
    kind: target.kind,
    resource: { group: target.group, version: target.version, resource: target.resource },
    subResource: target.subresource,
    requestKind: original.kind,
    requestResource: { group: original.group, version: original.version, resource: original.resource },
    requestSubResource: original.subresource,
    name: a.name,
    namespace: a.namespace,
    operation: a.operation,
    userInfo: {
      username: a.user.username,
      ...(a.user.uid !== undefined ? { uid: a.user.uid } : {}),
      groups: [...a.user.groups],
      ...(a.user.extra !== undefined ? { extra: a.user.extra } : {}),
    },
    dryRun: a.dryRun,
  };
}

/** The server's authorizer asked on behalf of `user` (the CEL authorizer library's decisions). */
export function celAuthorizerFor(authorizer: Authorizer | undefined, user: UserInfo): CelAuthorizer {
  return async (attributes) => {
    if (authorizer === undefined) return { decision: 'no-opinion', reason: 'no authorizer is configured' };
    const decision = await authorizer.authorize({
      user,
      info: {
        isResourceRequest: attributes.resourceRequest,
        path: attributes.path,
        verb: attributes.verb,
        apiPrefix: attributes.resourceRequest ? (attributes.apiGroup === '' ? 'api' : 'apis') : '',
        apiGroup: attributes.apiGroup,
        apiVersion: attributes.apiVersion,
        namespace: attributes.namespace,
        resource: attributes.resource,
        subresource: attributes.subresource,
        name: attributes.name,
        parts: [],
      },
    });
    return { decision: decision.decision, reason: decision.reason ?? '' };
  };
}

/**
 * The variable values of an admission expression for a request. `request` and `authorizer` are built when first
 * read: an activation given the variables its programs use (evaluate.ts) never builds those no expression reads.
 */
export function admissionExpressionValues(
  a: AdmissionAttributes, authorizer: Authorizer | undefined, target: ExpressionTarget = requestTarget(a), params?: unknown,
): Record<string, unknown> {
  const object: KubeObject | null = a.operation === 'DELETE' ? null : a.object ?? null;
  const oldObject: KubeObject | null = a.operation === 'CREATE' || a.operation === 'CONNECT' ? null : a.oldObject ?? null;
  let request: Record<string, unknown> | undefined;
  let authorizerValue: AuthorizerValue | undefined;
  return {
    object,
    oldObject,
    get request() {
      return (request ??= admissionRequestValue(a, target));
    },
    get authorizer() {
      return (authorizerValue ??= new AuthorizerValue(celAuthorizerFor(authorizer, a.user), {
        group: target.group, resource: target.resource, subresource: target.subresource, namespace: a.namespace, name: a.name,
      }));
    },
    ...(params !== undefined ? { params } : {}),
  };
}
