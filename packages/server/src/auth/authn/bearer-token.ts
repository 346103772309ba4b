/**
 * Bearer tokens on requests (k8s.io/apiserver's bearertoken authenticator): `Authorization: Bearer <token>` is
 * handed to the token methods; a presented token that no method accepts is an error (401), never anonymous.
 */
import type { Authenticator, TokenAuthenticator } from './authenticator.js';

/** The token of an `Authorization: Bearer <token>` header, or undefined (absent, other scheme, empty). */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  const parts = value.trim().split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  const token = parts[1]!;
  return token === '' ? undefined : token;
}

/** The request authenticator over the token methods, validating tokens for the API server's own audiences. */
export function bearerTokenAuthenticator(tokens: TokenAuthenticator): Authenticator {
  return {
    name: 'bearer-token',
    async authenticate(request) {
      const token = bearerToken(request.headers.authorization);
      if (token === undefined) return { kind: 'none' };
      const result = await tokens.authenticateToken(token);
      // The reason stays in the result for logs of the caller; the client only ever sees "Unauthorized".
      if (result.kind === 'none') return { kind: 'error', message: 'invalid bearer token' };
      return result;
    },
  };
}
