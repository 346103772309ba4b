/**
 * Service account issuer discovery (kube-apiserver's serviceaccount.NewOpenIDMetadata): the OpenID provider
 * configuration served at `/.well-known/openid-configuration` and the key set at `/openid/v1/jwks`, so a verifier
 * outside the cluster can check the tokens this server issues. Served only for an `https` issuer without query or
 * fragment; `jwks_uri` is `--service-account-jwks-uri` (https), else this server's own `/openid/v1/jwks`. The key set
 * holds every key that verifies service account tokens.
 */
import type { JWK } from 'jose';
import { fail, ok, type Result } from '@svc-apiserver/api';
import type { VerificationKey } from './keys.js';

/** The discovery paths. */
export const openIdConfigurationPath = '/.well-known/openid-configuration';
export const jwksPath = '/openid/v1/jwks';

/** The two documents, serialized once. */
export interface IssuerDiscovery {
  /** The provider configuration (JSON). */
  readonly configuration: string;
  /** The key set (JSON). */
  readonly keySet: string;
}

/** What the documents are made of. */
export interface IssuerDiscoveryInput {
  readonly issuer: string;
  /** `--service-account-jwks-uri`; '' for this server's own path. */
  readonly jwksUri: string;
  readonly keys: readonly VerificationKey[];
}

/**
 * A JWK of a verification key with kube's members: use, kty, kid, crv, alg, then the key's numbers (node exports the
 * public key's JWK itself).
 */
async function jwkOf(key: VerificationKey): Promise<JWK> {
  const { kty, crv, n, e, x, y } = key.key.export({ format: 'jwk' });
  return {
    use: 'sig', kty, kid: key.kid, ...(crv === undefined ? {} : { crv }), alg: key.algorithms[0]!,
    ...(n === undefined ? {} : { n }), ...(e === undefined ? {} : { e }), ...(x === undefined ? {} : { x }), ...(y === undefined ? {} : { y }),
  } as JWK;
}

/** Why `url` cannot be an issuer or JWKS address, or undefined. */
function httpsProblem(url: string, what: string, allowQuery: boolean): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${what} ${JSON.stringify(url)} is not a URL`;
  }
  if (parsed.protocol !== 'https:') return `${what} must use https scheme, got: ${url}`;
  if (!allowQuery && parsed.search !== '') return `${what} may not include a query, got: ${url}`;
  if (!allowQuery && parsed.hash !== '') return `${what} may not include a fragment, got: ${url}`;
  return undefined;
}

/**
 * The documents for the `host:port` clients reach this server at (the default `jwks_uri`'s authority), or why
 * discovery cannot be served with these settings (kube then serves none and says why).
 */
export async function issuerDiscovery(input: IssuerDiscoveryInput): Promise<Result<(externalAddress: string) => IssuerDiscovery, string>> {
  const issuerProblem = httpsProblem(input.issuer, 'issuer URL', false);
  if (issuerProblem !== undefined) return fail(issuerProblem);
  if (input.keys.length === 0) return fail('no keys provided for validating keyset');
  if (input.jwksUri !== '') {
    const problem = httpsProblem(input.jwksUri, 'jwksURI', true);
    if (problem !== undefined) return fail(problem);
  }
  const algorithms = [...new Set(input.keys.map((k) => k.algorithms[0]!))].sort();
  const keySet = JSON.stringify({ keys: await Promise.all(input.keys.map(jwkOf)) });
  let cached: { address: string; documents: IssuerDiscovery } | undefined;
  return ok((externalAddress: string): IssuerDiscovery => {
    if (cached?.address !== externalAddress) {
      const configuration = JSON.stringify({
        issuer: input.issuer,
        jwks_uri: input.jwksUri !== '' ? input.jwksUri : `https://${externalAddress}${jwksPath}`,
        response_types_supported: ['id_token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: algorithms,
      });
      cached = { address: externalAddress, documents: { configuration, keySet } };
    }
    return cached.documents;
  });
}
