/**
 * The server's own writes on the registry (kube-apiserver's loopback client: the in-process controllers and
 * post-start hooks, and subresource storage such as pods/eviction updating a PodDisruptionBudget's status): who
 * they are made as, and the field manager they record.
 */
import type { Names } from '@svc-apiserver/api';
import type { UserInfo } from '../../request/user-info.js';

/** The loopback identity: `system:apiserver` in `system:masters`. */
export const loopbackUser: UserInfo = { username: 'system:apiserver', groups: ['system:masters'] };

/** The field manager of loopback writes: the server's user agent up to its first `/` (`kube-apiserver` in kube). */
export function loopbackManager(names: Names): string {
  return names.name('serverName');
}
