/**
 * Kubernetes' authorizer library for policies (document 3 §Admission; k8s.io/apiserver/pkg/cel/library authz.go):
 * `authorizer.path(p)` or `authorizer.group(g).resource(r)` with optional `.subresource()`, `.namespace()`,
 * `.name()`, then `.check(verb)` giving a decision with `allowed()` and `reason()`; `authorizer.requestResource` is
 * the check for the resource of the request being admitted. The decision comes from a {@link CelAuthorizer} the
 * caller binds (the server's authorizer chain for the requesting user).
 */
import { celError, type CelLibrary } from './library.js';
import type { CelAuthorizationAttributes, CelAuthorizationDecision, CelAuthorizer } from './cel-authorizer.js';
import { currentEvaluation } from './evaluation-state.js';

/** The resource of the request being admitted (`authorizer.requestResource`). */
export interface RequestResource {
  readonly group: string;
  readonly resource: string;
  readonly subresource: string;
  readonly namespace: string;
  readonly name: string;
}

/** A check on resources, refined step by step (`kubernetes.authorization.ResourceCheck`). */
export class ResourceCheck {
  constructor(readonly authorizer: CelAuthorizer, readonly target: RequestResource) {}
  with(change: Partial<RequestResource>): ResourceCheck {
    return new ResourceCheck(this.authorizer, { ...this.target, ...change });
  }
}

/** The value of the `authorizer` variable (`kubernetes.authorization.Authorizer`). */
export class AuthorizerValue {
  readonly requestResource: ResourceCheck;
  constructor(readonly authorize: CelAuthorizer, request: RequestResource) {
    this.requestResource = new ResourceCheck(authorize, request);
  }
}

/** A check on a non-resource path (`kubernetes.authorization.PathCheck`). */
export class PathCheck {
  constructor(readonly authorizer: CelAuthorizer, readonly path: string) {}
}

/** A check on an API group, before its resource is named (`kubernetes.authorization.GroupCheck`). */
export class GroupCheck {
  constructor(readonly authorizer: CelAuthorizer, readonly group: string) {}
}

/** The decision of one check (`kubernetes.authorization.Decision`). */
export class Decision {
  constructor(readonly decision: CelAuthorizationDecision) {}
}

const t = (name: string): string => `kubernetes.authorization.${name}`;

function check(authorizer: CelAuthorizer, attributes: CelAuthorizationAttributes): Decision {
  const state = currentEvaluation();
  if (state === undefined) throw celError('authorizer used outside an evaluation');
  return new Decision(state.authorize(authorizer, attributes));
}

/** The authorizer library. */
export const authzLibrary: CelLibrary = {
  name: 'authz',
  types: [
    { name: t('Decision'), ctor: Decision, fields: {} },
    { name: t('ResourceCheck'), ctor: ResourceCheck, fields: {} },
    { name: t('GroupCheck'), ctor: GroupCheck, fields: {} },
    { name: t('PathCheck'), ctor: PathCheck, fields: {} },
    { name: t('Authorizer'), ctor: AuthorizerValue, fields: { requestResource: t('ResourceCheck') } },
  ],
  overloads: [
    { signature: `${t('Authorizer')}.path(string): ${t('PathCheck')}`, impl: (a: AuthorizerValue, p: string) => new PathCheck(a.authorize, p) },
    { signature: `${t('Authorizer')}.group(string): ${t('GroupCheck')}`, impl: (a: AuthorizerValue, g: string) => new GroupCheck(a.authorize, g) },
    {
      signature: `${t('GroupCheck')}.resource(string): ${t('ResourceCheck')}`,
      impl: (g: GroupCheck, r: string) => new ResourceCheck(g.authorizer, { group: g.group, resource: r, subresource: '', namespace: '', name: '' }),
    },
    { signature: `${t('ResourceCheck')}.subresource(string): ${t('ResourceCheck')}`, impl: (r: ResourceCheck, s: string) => r.with({ subresource: s }) },
    { signature: `${t('ResourceCheck')}.namespace(string): ${t('ResourceCheck')}`, impl: (r: ResourceCheck, s: string) => r.with({ namespace: s }) },
    { signature: `${t('ResourceCheck')}.name(string): ${t('ResourceCheck')}`, impl: (r: ResourceCheck, s: string) => r.with({ name: s }) },
    {
      signature: `${t('ResourceCheck')}.check(string): ${t('Decision')}`,
      impl: (r: ResourceCheck, verb: string) => check(r.authorizer, {
        verb, resourceRequest: true, path: '', apiGroup: r.target.group, apiVersion: '*', resource: r.target.resource,
        subresource: r.target.subresource, namespace: r.target.namespace, name: r.target.name,
      }),
    },
    {
      signature: `${t('PathCheck')}.check(string): ${t('Decision')}`,
      impl: (p: PathCheck, verb: string) => check(p.authorizer, {
        verb, resourceRequest: false, path: p.path, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '',
      }),
    },
    { signature: `${t('Decision')}.allowed(): bool`, impl: (d: Decision) => d.decision.decision === 'allow' },
    { signature: `${t('Decision')}.reason(): string`, impl: (d: Decision) => d.decision.reason },
  ],
};
