/**
 * The identity in-process controllers act as (kube-apiserver's loopback client identity).
 */
import type { UserInfo } from '../auth/user-info.js';

/** The loopback identity: `system:apiserver` in `system:masters`. */
export const controllerUser: UserInfo = { username: 'system:apiserver', groups: ['system:masters'] };
