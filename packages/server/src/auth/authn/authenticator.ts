/**
 * Authenticators and their union (k8s.io/apiserver's authenticator.Request and union.New): each authenticator
 * looks at the request; the first that recognises it decides. One module per method under `authn/`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { UserInfo } from '../user-info.js';

/** What an authenticator sees of a request. */
export interface AuthenticationRequest {
  readonly headers: IncomingHttpHeaders;
  /** The client's TLS certificate chain (DER, leaf first), unverified. */
  readonly clientCertificates: readonly Buffer[];
}

/**
 * An authenticator's answer: `user` (authenticated), `none` (this method does not apply: try the next), or
 * `error` (credentials of this method were presented and are invalid).
 */
export type AuthenticationResult =
  | { readonly kind: 'user'; readonly user: UserInfo; readonly method: string }
  | { readonly kind: 'none' }
  | { readonly kind: 'error'; readonly message: string };

/** One authentication method. */
export interface Authenticator {
  readonly name: string;
  authenticate(request: AuthenticationRequest): Promise<AuthenticationResult>;
}

/**
 * The union: the first authenticator returning a user wins; errors are remembered and reported only when no
 * authenticator succeeds (as union.New without fail-on-error).
 */
export function authenticatorUnion(authenticators: readonly Authenticator[]): Authenticator {
  return {
    name: 'union',
    async authenticate(request) {
      let firstError: AuthenticationResult | undefined;
      for (const a of authenticators) {
        const result = await a.authenticate(request);
        if (result.kind === 'user') return result;
        if (result.kind === 'error') firstError ??= result;
      }
      return firstError ?? { kind: 'none' };
    },
  };
}

/** Adds `system:authenticated` to an authenticated user's groups, as kube-apiserver does for every method. */
export function withAuthenticatedGroup(user: UserInfo): UserInfo {
  return user.groups.includes('system:authenticated') ? user : { ...user, groups: [...user.groups, 'system:authenticated'] };
}
