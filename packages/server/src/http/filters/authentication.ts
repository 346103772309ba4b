/**
 * The authentication filter (k8s.io/apiserver's WithAuthentication): asks the authenticator union for the
 * request's identity. A request no authenticator claims is anonymous (system:anonymous, system:unauthenticated)
 * when anonymous access is on, else 401; a request whose credentials are presented but invalid is always 401.
 * The 401 is a Status that never says which method or which part of a credential failed, and credentials are
 * removed from the request once they have served (kube strips Authorization and the proxy headers).
 */
import { failure } from '@svc-apiserver/api';
import { anonymousUser } from '../../request/user-info.js';
import { withAuthenticatedGroup, type Authenticator } from '../../auth/authn/authenticator.js';
import type { Filter, RequestContext } from '../context.js';
import { authMetrics, type AuthMetrics } from '../../metrics/auth-metrics.js';
import { writeStatus } from '../response-writer.js';

/** Options of the authentication filter. */
export interface AuthenticationFilterOptions {
  /** Serve unclaimed requests as system:anonymous (default true). */
  readonly anonymous?: boolean;
  /** Header names (lowercase) to remove after authentication, given the names present. */
  readonly stripHeaders?: (present: readonly string[]) => readonly string[];
  /** Where failure reasons go (they never hold a credential). */
  readonly log?: (message: string) => void;
  /** Where attempts are counted (`authentication_attempts`, ...; default: the server's registry). */
  readonly metrics?: AuthMetrics;
}

/** The 401 every authentication failure answers. */
export function unauthorized() {
  return failure('Unauthorized', 'Unauthorized');
}

function strip(ctx: RequestContext, names: readonly string[]): void {
  const headers = ctx.headers as Record<string, unknown>;
  for (const n of names) delete headers[n];
}

/** The authentication filter. */
export function authentication(authenticator: Authenticator, options: AuthenticationFilterOptions = {}): Filter {
  const anonymous = options.anonymous ?? true;
  const metrics = options.metrics ?? authMetrics();
  return async (ctx, next) => {
    const started = performance.now();
    const result = await authenticator.authenticate(ctx);
    // kube's anonymous authenticator is the union's last: an unclaimed request served anonymously succeeded.
    metrics.observeAuthentication(result.kind === 'error' ? 'error' : result.kind === 'user' || anonymous ? 'success' : 'failure',
      (performance.now() - started) / 1000, result.kind === 'user' ? result.user.username : anonymousUser.username);
    if (result.kind === 'error' || (result.kind === 'none' && !anonymous)) {
      if (result.kind === 'error') options.log?.(`unable to authenticate the request: ${result.message}`);
      writeStatus(ctx, unauthorized());
      return;
    }
    ctx.user = result.kind === 'user' ? withAuthenticatedGroup(result.user) : anonymousUser;
    // Proxy headers go whoever sent them: past this point only the authenticated identity speaks.
    if (result.kind === 'user' && ctx.headers.authorization !== undefined) strip(ctx, ['authorization']);
    if (options.stripHeaders !== undefined) strip(ctx, options.stripHeaders(Object.keys(ctx.headers)));
    await next();
  };
}
