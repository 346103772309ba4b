/**
 * A `clientConfig` as admission webhook configurations, CRD conversion webhooks and APIServices give it (document
 * 3 §Webhook configuration resources): a `url`, or a `service` reference (`namespace`, `name`, `path` default `/`,
 * `port` default 443) resolved to one of its endpoints, with `caBundle` (base64 PEM; the host's roots when absent)
 * as the trust. A Service's certificate is verified for `<name>.<namespace>.svc`, as kube verifies it. The
 * credentials come from the admission configuration's connection file, by host.
 */
import { isIPv6 } from 'node:net';
import { fail, ok, type Result } from '@svc-apiserver/api';
import type { AuthInfoResolver } from './auth-info-resolver.js';
import type { HttpsTarget } from './https-request.js';
import type { ServiceResolver } from './service-resolver.js';

/** A Service reference of a clientConfig. */
export interface ServiceReference {
  readonly namespace: string;
  readonly name: string;
  readonly path?: string;
  readonly port?: number;
}

/** A clientConfig as the API objects carry it. */
export interface ClientConfig {
  readonly url?: string;
  readonly service?: ServiceReference;
  /** Base64 of the PEM CA bundle. */
  readonly caBundle?: string;
}

/** What resolution needs besides the clientConfig. */
export interface ClientConfigResolvers {
  readonly services: ServiceResolver;
  readonly authInfo: AuthInfoResolver;
}

/** A resolved call: the URL to send to and how to connect. */
export interface ResolvedClientConfig {
  readonly url: string;
  readonly target: HttpsTarget;
}

/** The CA bundle of a clientConfig as PEM, or undefined for the host's roots. */
function caPem(caBundle: string | undefined): string | undefined {
  if (caBundle === undefined || caBundle === '') return undefined;
  return Buffer.from(caBundle, 'base64').toString('utf8');
}

function hostForUrl(host: string): string {
  return isIPv6(host) ? `[${host}]` : host;
}

/** Resolves a clientConfig to a URL and target; `timeoutMs` bounds the call. */
export async function resolveClientConfig(config: ClientConfig, resolvers: ClientConfigResolvers, timeoutMs: number): Promise<Result<ResolvedClientConfig, string>> {
  const ca = caPem(config.caBundle);
  const trust: HttpsTarget = { ...(ca !== undefined ? { ca } : {}), timeoutMs };
  if (config.url !== undefined) {
    let u: URL;
    try {
      u = new URL(config.url);
    } catch {
      return fail(`invalid URL ${JSON.stringify(config.url)}`);
    }
    if (u.protocol !== 'https:') return fail(`only https URLs are allowed: ${config.url}`);
    const port = u.port === '' ? 443 : Number(u.port);
    return ok({ url: config.url, target: { ...resolvers.authInfo.forHost(u.hostname, port), ...trust } });
  }
  if (config.service !== undefined) {
    const { namespace, name } = config.service;
    const port = config.service.port ?? 443;
    const address = await resolvers.services.resolve(namespace, name, port);
    if (!address.ok) return address;
    const path = config.service.path ?? '/';
    return ok({
      url: `https://${hostForUrl(address.value.host)}:${address.value.port}${path.startsWith('/') ? path : `/${path}`}`,
      target: { ...resolvers.authInfo.forService(name, namespace, port), ...trust, serverName: `${name}.${namespace}.svc` },
    });
  }
  return fail('clientConfig names neither a url nor a service');
}
