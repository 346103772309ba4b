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
import { pooledTarget } from './connection-pool.js';
import { parseHttpsUrl, type HttpsTarget, type RequestUrl } from './https-request.js';
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
  /** The same URL, split. */
  readonly requestUrl: RequestUrl;
  readonly target: HttpsTarget;
}

/**
 * A clientConfig checked and prepared once, for every call of a configuration version: a URL split, the credentials
 * of its host found, the CA bundle decoded and made the connection pool's trust. A Service reference's endpoint is
 * still chosen per call.
 */
export interface CompiledClientConfig {
  readonly url?: { readonly text: string; readonly parsed: RequestUrl };
  readonly service?: { readonly namespace: string; readonly name: string; readonly port: number; readonly path: string };
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

/** Prepares a clientConfig (its credentials from `authInfo`); `timeoutMs` bounds each call. */
export function compileClientConfig(config: ClientConfig, authInfo: AuthInfoResolver, timeoutMs: number): Result<CompiledClientConfig, string> {
  const ca = caPem(config.caBundle);
  // Webhooks are offered HTTP/2, as kube's clients of them offer it.
  const trust: HttpsTarget = { ...(ca !== undefined ? { ca } : {}), timeoutMs, offerHttp2: true };
  if (config.url !== undefined) {
    const parsed = parseHttpsUrl(config.url);
    if (!parsed.ok) return parsed;
    return ok({ url: { text: config.url, parsed: parsed.value }, target: pooledTarget({ ...authInfo.forHost(parsed.value.host, parsed.value.port), ...trust }) });
  }
  if (config.service !== undefined) {
    const { namespace, name } = config.service;
    const port = config.service.port ?? 443;
    const path = config.service.path ?? '/';
    return ok({
      service: { namespace, name, port, path: path.startsWith('/') ? path : `/${path}` },
      target: pooledTarget({ ...authInfo.forService(name, namespace, port), ...trust, serverName: `${name}.${namespace}.svc` }),
    });
  }
  return fail('clientConfig names neither a url nor a service');
}

/** Where one call of a prepared clientConfig goes: its URL, or an endpoint of its Service now. */
export async function resolveCompiledClientConfig(compiled: CompiledClientConfig, services: ServiceResolver): Promise<Result<ResolvedClientConfig, string>> {
  if (compiled.url !== undefined) return ok({ url: compiled.url.text, requestUrl: compiled.url.parsed, target: compiled.target });
  const service = compiled.service!;
  const address = await services.resolve(service.namespace, service.name, service.port);
  if (!address.ok) return address;
  const { host, port } = address.value;
  return ok({ url: `https://${hostForUrl(host)}:${port}${service.path}`, requestUrl: { host, port, path: service.path }, target: compiled.target });
}

/** Resolves a clientConfig to a URL and target; `timeoutMs` bounds the call. */
export async function resolveClientConfig(config: ClientConfig, resolvers: ClientConfigResolvers, timeoutMs: number): Promise<Result<ResolvedClientConfig, string>> {
  const compiled = compileClientConfig(config, resolvers.authInfo, timeoutMs);
  if (!compiled.ok) return compiled;
  return resolveCompiledClientConfig(compiled.value, resolvers.services);
}
