/**
 * The service account issuer discovery routes (kube-apiserver's routes.NewOpenIDMetadataServer):
 * `/.well-known/openid-configuration` as `application/json` and `/openid/v1/jwks` as `application/jwk-set+json`,
 * both cacheable for an hour. Readable by whoever RBAC lets read them (the
 * `system:service-account-issuer-discovery` ClusterRole).
 */
import type { IssuerDiscovery } from '../../auth/serviceaccount/issuer-discovery.js';
import type { RequestContext } from '../context.js';
import { writeBytes } from '../response-writer.js';

const cacheControl = { 'Cache-Control': 'public, max-age=3600' };

/** Which document a path names, or undefined for other paths. */
export function issuerDiscoveryDocument(parts: readonly string[]): 'configuration' | 'keySet' | undefined {
  if (parts.length === 2 && parts[0] === '.well-known' && parts[1] === 'openid-configuration') return 'configuration';
  if (parts.length === 3 && parts[0] === 'openid' && parts[1] === 'v1' && parts[2] === 'jwks') return 'keySet';
  return undefined;
}

/** Writes one of the documents. */
export function serveIssuerDiscovery(ctx: RequestContext, discovery: IssuerDiscovery, document: 'configuration' | 'keySet'): void {
  if (document === 'configuration') writeBytes(ctx, 200, 'application/json', discovery.configuration, cacheControl);
  else writeBytes(ctx, 200, 'application/jwk-set+json', discovery.keySet, cacheControl);
}
