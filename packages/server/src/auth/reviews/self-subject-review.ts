/**
 * SelfSubjectReview (document 2 §SelfSubjectReviewStatus, kube's selfsubjectreview REST): answers who the caller
 * is, after authentication and impersonation, in `status.userInfo`. Nothing is stored.
 */
import { apiVersionOf, ok, type KubeObject } from '@svc-apiserver/api';
import type { VirtualCreate } from '../../registry/virtual-resource.js';
import type { UserInfo } from '../../request/user-info.js';

/** The `userInfo` of a review: empty fields left out, as kube's JSON omits them. */
export function reviewUserInfo(user: UserInfo): Record<string, unknown> {
  return {
    username: user.username,
    ...(user.uid !== undefined && user.uid !== '' ? { uid: user.uid } : {}),
    ...(user.groups.length > 0 ? { groups: [...user.groups] } : {}),
    ...(user.extra !== undefined && Object.keys(user.extra).length > 0
      ? { extra: Object.fromEntries(Object.entries(user.extra).map(([k, v]) => [k, [...v]])) }
      : {}),
  };
}

/** The SelfSubjectReview create. */
export function selfSubjectReview(): VirtualCreate {
  return async (request, def) => {
    const answer: KubeObject = {
      apiVersion: apiVersionOf(def.group, def.version),
      kind: def.kind,
      metadata: { creationTimestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z') },
      status: { userInfo: reviewUserInfo(request.user) },
    };
    return ok(answer);
  };
}
