/**
 * TokenReview (kube's tokenreview REST, `authentication.svc.io/v1`): authenticates `spec.token` with the server's
 * own token methods for `spec.audiences` (default: the API server's audiences) and answers in `status`; a
 * failure is an unauthenticated status (v1's `authenticated` is omitempty, so false is left out, and the user is `{}`)
 * with the method's reason in `status.error`, never an error response.
 */
import { apiVersionOf, badRequest, fail, internalError, ok, type KubeObject } from '@svc-apiserver/api';
import type { VirtualCreate } from '../../registry/virtual-resource.js';
import { intersectAudiences, type TokenAuthenticator } from '../authn/authenticator.js';
import { reviewUserInfo } from './self-subject-review.js';

/** The TokenReview create over the token methods. */
export function tokenReview(tokens: TokenAuthenticator, apiAudiences: readonly string[]): VirtualCreate {
  return async (_request, def, object) => {
    const spec = (object as { spec?: { token?: unknown; audiences?: unknown } }).spec ?? {};
    if (object.metadata?.namespace) return fail(badRequest(`namespace is not allowed on this type: ${object.metadata.namespace}`));
    if (typeof spec.token !== 'string' || spec.token === '') {
      return fail(badRequest('token is required for TokenReview in authentication'));
    }
    const requested = Array.isArray(spec.audiences) ? spec.audiences.filter((a): a is string => typeof a === 'string') : [];
    const audiences = requested.length > 0 ? requested : [...apiAudiences];
    const result = await tokens.authenticateToken(spec.token, audiences.length > 0 ? audiences : undefined);
    const status: Record<string, unknown> = result.kind === 'user' ? { authenticated: true } : { user: {} };
    if (result.kind === 'error') status.error = result.message;
    if (result.kind === 'user') {
      const got = result.audiences ?? [];
      if (audiences.length > 0 && intersectAudiences(audiences, got).length === 0) {
        return fail(internalError('error validating audience'));
      }
      status.user = reviewUserInfo(result.user);
      if (got.length > 0) status.audiences = [...got];
    }
    // kube answers with the request object, status filled in; its unset creationTimestamp encodes as null.
    const answer: Record<string, unknown> = {
      apiVersion: apiVersionOf(def.group, def.version),
      kind: def.kind,
      metadata: { ...(object.metadata ?? {}), creationTimestamp: null },
      spec: { ...spec },
      status,
    };
    return ok(answer as KubeObject);
  };
}
