/**
 * SelfSubjectAccessReview (kube's selfsubjectaccessreview REST, `authorization.svc.io/v1`): may the caller (its
 * identity after authentication and impersonation) do what the attributes say. The spec has no user or groups:
 * such fields are unknown to its schema, so the decoding step drops them (a warning, or 400 with Strict field
 * validation) and they never replace the caller.
 */
import { fail, ok } from '@svc-apiserver/api';
import type { VirtualCreate } from '../../registry/virtual-resource.js';
import type { Authorizer } from '../../request/authorizer.js';
import {
  accessReviewStatus, echoedSpec, invalidReview, readAccessReviewSpec, requestInfoFromSpec, reviewAnswer,
  validateAccessReviewSpec, validateReviewMetadata,
} from './access-review-attributes.js';

/** The SelfSubjectAccessReview create over `authorizer`. */
export function selfSubjectAccessReview(authorizer: Authorizer): VirtualCreate {
  return async (request, def, object) => {
    const spec = readAccessReviewSpec(object);
    const errors = [...validateAccessReviewSpec(spec, false), ...validateReviewMetadata(object, false)];
    if (errors.length > 0) return fail(invalidReview(def, errors));
    const decision = await authorizer.authorize({ user: request.user, info: requestInfoFromSpec(spec) });
    return ok(reviewAnswer(def, {}, echoedSpec(object, ['resourceAttributes', 'nonResourceAttributes']), accessReviewStatus(decision)));
  };
}
