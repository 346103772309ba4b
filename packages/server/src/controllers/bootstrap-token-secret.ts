/**
 * Bootstrap token Secrets as the bootstrapsigner and tokencleaner controllers read them (document 2 §Bootstrap
 * tokens; kube's bootstrap secretutil): Secrets `bootstrap-token-<id>` of type `bootstrap.<domain>/token` in the
 * system namespace, with `token-id`, `token-secret`, an optional RFC 3339 `expiration` (one that does not parse
 * counts as expired) and `usage-bootstrap-signing: "true"` for tokens that sign `cluster-info`.
 */
import type { KubeObject, Names } from '@svc-apiserver/api';

/** The name prefix of bootstrap token Secrets. */
export const bootstrapTokenSecretPrefix = 'bootstrap-token-';

const tokenIdRe = /^[a-z0-9]{6}$/;
const tokenSecretRe = /^[a-z0-9]{16}$/;
/** Go's time.RFC3339 layout, fractional seconds allowed. */
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

type Secret = KubeObject & { type?: string; data?: Record<string, string> };

/** A data value of a Secret, decoded ('' when absent). */
function dataOf(secret: Secret, key: string): string {
  const v = secret.data?.[key];
  return typeof v === 'string' ? Buffer.from(v, 'base64').toString('utf8') : '';
}

/** True for a bootstrap token Secret of the flavour (type and namespace; the name is checked by the readers). */
export function isBootstrapTokenSecret(secret: KubeObject, names: Names): boolean {
  return (secret as Secret).type === names.domain('token', 'bootstrap') && secret.metadata?.namespace === names.name('systemNamespace');
}

/** When the token expires (ms), `'invalid'` for an expiration that does not parse, undefined when it never does. */
export function bootstrapTokenExpiration(secret: KubeObject): number | 'invalid' | undefined {
  const text = dataOf(secret as Secret, 'expiration');
  if (text === '') return undefined;
  const at = rfc3339.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(at) ? 'invalid' : at;
}

/** True when the token has expired at `now` (kube's HasExpired: an unparsable expiration has). */
export function bootstrapTokenExpired(secret: KubeObject, now: number): boolean {
  const at = bootstrapTokenExpiration(secret);
  return at === 'invalid' || (at !== undefined && at <= now);
}

/**
 * The token id and secret of a Secret that may sign `cluster-info` at `now` (kube's validateSecretForSigning): its
 * name matches its `token-id`, both parts are well formed, it has not expired and it is marked for signing.
 */
export function signingToken(secret: KubeObject, now: number): { id: string; secret: string } | undefined {
  const s = secret as Secret;
  const name = s.metadata?.name ?? '';
  if (!name.startsWith(bootstrapTokenSecretPrefix)) return undefined;
  const id = dataOf(s, 'token-id');
  const tokenSecret = dataOf(s, 'token-secret');
  if (id !== name.slice(bootstrapTokenSecretPrefix.length) || !tokenIdRe.test(id) || !tokenSecretRe.test(tokenSecret)) return undefined;
  if (bootstrapTokenExpired(s, now)) return undefined;
  if (dataOf(s, 'usage-bootstrap-signing') !== 'true') return undefined;
  return { id, secret: tokenSecret };
}
