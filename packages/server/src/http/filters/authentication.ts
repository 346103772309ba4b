/**
 * The authentication filter (k8s.io/apiserver's WithAuthentication): asks the authenticator union for the
 * request's identity. A request no authenticator claims is anonymous (system:anonymous, system:unauthenticated);
 * a request whose credentials are presented but invalid is 401.
 */
import { failure } from '@svc-apiserver/api';
import { anonymousUser } from '../../auth/user-info.js';
import type { Authenticator } from '../../auth/authn/authenticator.js';
import type { Filter } from '../context.js';

/** The authentication filter. */
export function authentication(authenticator: Authenticator): Filter {
  return async (ctx, next) => {
    const result = await authenticator.authenticate(ctx);
    if (result.kind === 'error') {
      ctx.writeStatus(failure('Unauthorized', 'Unauthorized'));
      return;
    }
    ctx.user = result.kind === 'user' ? result.user : anonymousUser;
    await next();
  };
}
