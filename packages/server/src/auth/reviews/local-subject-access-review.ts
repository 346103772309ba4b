/**
 * LocalSubjectAccessReview (kube's localsubjectaccessreview REST, `authorization.svc.io/v1`, namespaced): a
 * SubjectAccessReview confined to the namespace of its path. The object's namespace is the path's (400 when it
 * names another, as kube's create handler answers); an empty `spec.resourceAttributes.namespace` is defaulted to it
 * (document 2; kube itself requires it set), another one is 422 as kube's validation reports it; non-resource
 * attributes are refused.
 */
import { badRequest, fail, fieldError, ok, type FieldError } from '@svc-apiserver/api';
import type { VirtualCreate } from '../../registry/virtual-resource.js';
import type { Authorizer } from '../../request/authorizer.js';
import {
  accessReviewStatus, echoedSpec, invalidReview, readAccessReviewSpec, record, requestInfoFromSpec, reviewAnswer,
  userFromSpec, validateAccessReviewSpec, validateReviewMetadata,
} from './access-review-attributes.js';
import { subjectAccessReviewSpecFields } from './subject-access-review.js';

/** The LocalSubjectAccessReview create over `authorizer`. */
export function localSubjectAccessReview(authorizer: Authorizer): VirtualCreate {
  return async (request, def, object) => {
    const namespace = request.namespace;
    if (namespace === '') return fail(badRequest('namespace is required on this type: '));
    const objectNamespace = object.metadata?.namespace ?? '';
    if (objectNamespace !== '' && objectNamespace !== namespace) {
      return fail(badRequest('the namespace of the provided object does not match the namespace sent on the request'));
    }
    const attributes = record(record(object['spec'])?.['resourceAttributes']);
    if (attributes !== undefined && (attributes['namespace'] ?? '') === '') attributes['namespace'] = namespace;
    const spec = readAccessReviewSpec(object);
    const errors: FieldError[] = [...validateAccessReviewSpec(spec, true), ...validateReviewMetadata(object, true)];
    if (spec.resourceAttributes !== undefined && spec.resourceAttributes['namespace'] !== namespace) {
      errors.push(fieldError.invalid('spec.resourceAttributes.namespace', spec.resourceAttributes['namespace'], 'must match metadata.namespace'));
    }
    if (spec.nonResourceAttributes !== undefined) {
      errors.push(fieldError.invalid('spec.nonResourceAttributes', spec.nonResourceAttributes, 'disallowed on this kind of request'));
    }
    if (errors.length > 0) return fail(invalidReview(def, errors));
    const decision = await authorizer.authorize({ user: userFromSpec(spec), info: requestInfoFromSpec(spec) });
    return ok(reviewAnswer(def, { namespace }, echoedSpec(object, subjectAccessReviewSpecFields), accessReviewStatus(decision)));
  };
}
