/**
 * The server's own writes on the registry (kube-apiserver's loopback client: the in-process controllers and
 * post-start hooks, and subresource storage such as pods/eviction updating a PodDisruptionBudget's status): who
 * they are made as, and the field manager they record.
 */
import type { Names } from '@svc-apiserver/api';
import type { UserInfo } from '../../request/user-info.js';
import type { OperationContext } from './admission-attributes.js';

/** The loopback identity: `system:apiserver` in `system:masters`. */
export const loopbackUser: UserInfo = { username: 'system:apiserver', groups: ['system:masters'] };

/** The field manager of loopback writes: the server's user agent up to its first `/` (`kube-apiserver` in kube). */
export function loopbackManager(names: Names): string {
  return names.name('serverName');
}

/**
 * Who makes a write of the server's own: the API server itself (its post-start hooks and the controllers kube runs
 * inside kube-apiserver: system objects, API services, CRD status) or the controllers kube runs in
 * kube-controller-manager.
 */
export type LoopbackComponent = 'apiserver' | 'controller-manager';

/**
 * The context of the server's own writes: the loopback identity, recording the component's field manager (kube's
 * managedFields show `kube-apiserver` or `kube-controller-manager` for them, the first part of each client's user
 * agent).
 */
export function loopbackContext(names: Names, component: LoopbackComponent): OperationContext {
  const fieldManager = component === 'apiserver' ? loopbackManager(names) : names.name('controllerManagerName');
  return { user: loopbackUser, dryRun: false, fieldManager };
}
