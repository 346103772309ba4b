/**
 * Authenticators and their union (k8s.io/apiserver's authenticator.Request and union.New): each authenticator
 * looks at the request; the first that recognises it decides. One module per method under `authn/`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { UserInfo } from '../../request/user-info.js';

/** What an authenticator sees of a request. */
export interface AuthenticationRequest {
  readonly headers: IncomingHttpHeaders;
  /** The client's TLS certificate chain (DER, leaf first), unverified. */
  readonly clientCertificates: readonly Buffer[];
  /** Header lines as sent (`[name, value, ...]`), keeping repeated headers apart; `headers` when absent. */
  readonly rawHeaders?: readonly string[];
}

/**
 * Every value of a header, each header line apart (Go's `Header.Values`): from the raw lines when the request
 * has them, else from the joined header.
 */
export function headerValues(request: Pick<AuthenticationRequest, 'headers' | 'rawHeaders'>, name: string): string[] {
  const lower = name.toLowerCase();
  if (request.rawHeaders !== undefined) {
    const out: string[] = [];
    for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) {
      if (request.rawHeaders[i]!.toLowerCase() === lower) out.push(request.rawHeaders[i + 1]!);
    }
    return out;
  }
  const v = request.headers[lower];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
}

/** The lowercase names of the request's headers. */
export function headerNames(request: Pick<AuthenticationRequest, 'headers' | 'rawHeaders'>): string[] {
  if (request.rawHeaders === undefined) return Object.keys(request.headers);
  const out = new Set<string>();
  for (let i = 0; i < request.rawHeaders.length; i += 2) out.add(request.rawHeaders[i]!.toLowerCase());
  return [...out];
}

/**
 * An authenticator's answer: `user` (authenticated), `none` (this method does not apply: try the next), or
 * `error` (credentials of this method were presented and are invalid).
 */
export type AuthenticationResult =
  | {
    readonly kind: 'user';
    readonly user: UserInfo;
    readonly method: string;
    /** Audiences the credential was found valid for (token methods), the intersection with those requested. */
    readonly audiences?: readonly string[];
  }
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

/**
 * A bearer-token method (k8s.io/apiserver's authenticator.Token). `audiences` are the audiences the caller wants
 * the token to be valid for (a TokenReview's `spec.audiences`); absent means the API server's own audiences.
 * `none` means the token is not one of this method's (or not valid for it); `error` carries a reason that may be
 * shown in a TokenReview's `status.error` but never in a 401.
 */
export interface TokenAuthenticator {
  readonly name: string;
  authenticateToken(token: string, audiences?: readonly string[]): Promise<AuthenticationResult>;
}

/** The first token authenticator that returns a user wins; like {@link authenticatorUnion} for tokens. */
export function tokenAuthenticatorUnion(authenticators: readonly TokenAuthenticator[]): TokenAuthenticator {
  return {
    name: 'union',
    async authenticateToken(token, audiences) {
      let firstError: AuthenticationResult | undefined;
      for (const a of authenticators) {
        const result = await a.authenticateToken(token, audiences);
        if (result.kind === 'user') return { ...result, user: withAuthenticatedGroup(result.user) };
        if (result.kind === 'error') firstError ??= result;
      }
      return firstError ?? { kind: 'none' };
    },
  };
}

/** The audiences both lists hold (authenticator.Audiences.Intersect). */
export function intersectAudiences(a: readonly string[], b: readonly string[]): string[] {
  const set = new Set(b);
  return [...new Set(a.filter((x) => set.has(x)))];
}

/**
 * Makes a method that knows nothing of audiences audience-aware (authenticator.WrapAudienceAgnosticToken): its
 * tokens are valid for the API server's audiences only, so a request for other audiences is not its to answer.
 */
export function audienceAgnostic(apiAudiences: readonly string[], inner: TokenAuthenticator): TokenAuthenticator {
  return {
    name: inner.name,
    async authenticateToken(token, audiences) {
      if (audiences === undefined || apiAudiences.length === 0) return inner.authenticateToken(token);
      const valid = intersectAudiences(apiAudiences, audiences);
      if (valid.length === 0) return { kind: 'none' };
      const result = await inner.authenticateToken(token);
      return result.kind === 'user' ? { ...result, audiences: valid } : result;
    },
  };
}
