/**
 * SubjectAccessReview (kube's subjectaccessreview REST, `authorization.svc.io/v1`): asks the server's authorizer
 * whether the user and groups of the spec may do what its attributes say, and answers in `status`. A negative
 * decision is an answer (`allowed: false`), never an error response; nothing is stored.
 */
import { fail, ok } from '@svc-apiserver/api';
import type { VirtualCreate } from '../../registry/virtual-resource.js';
import type { Authorizer } from '../../request/authorizer.js';
import {
  accessReviewStatus, echoedSpec, invalidReview, readAccessReviewSpec, requestInfoFromSpec, reviewAnswer, userFromSpec,
  validateAccessReviewSpec, validateReviewMetadata,
} from './access-review-attributes.js';

/** The spec fields of a SubjectAccessReviewSpec, as an answer repeats them. */
export const subjectAccessReviewSpecFields: readonly string[] = ['resourceAttributes', 'nonResourceAttributes', 'user', 'groups', 'extra', 'uid'];

/** The SubjectAccessReview create over `authorizer` (the one that authorizes the server's own requests). */
export function subjectAccessReview(authorizer: Authorizer): VirtualCreate {
  return async (_request, def, object) => {
    const spec = readAccessReviewSpec(object);
    const errors = [...validateAccessReviewSpec(spec, true), ...validateReviewMetadata(object, false)];
    if (errors.length > 0) return fail(invalidReview(def, errors));
    const decision = await authorizer.authorize({ user: userFromSpec(spec), info: requestInfoFromSpec(spec) });
    return ok(reviewAnswer(def, {}, echoedSpec(object, subjectAccessReviewSpecFields), accessReviewStatus(decision)));
  };
}
