/**
 * The aggregator's proxy (kube-aggregator's proxyHandler): a request for a group-version registered by an
 * APIService with a service reference goes to one of the Service's endpoints over TLS — verified with the
 * APIService's `caBundle` for `<service>.<namespace>.svc`, or not at all with `insecureSkipTLSVerify` — presenting
 * the front-proxy client certificate and the caller's identity in the request-header authenticator's headers
 * (`X-Remote-User`, `X-Remote-Group`, `X-Remote-Extra-<key>`); the caller's own credentials are not passed on. The
 * answer is relayed as it comes, so watches and other long requests stream. An APIService that is not Available,
 * or whose Service has no endpoint, is a 503.
 */
import { serviceUnavailable } from '@svc-apiserver/api';
import type { RequestContext } from '../http/context.js';
import { pooledTarget } from '../outbound/connection-pool.js';
import { httpsExchange, type HttpsTarget } from '../outbound/https-request.js';
import type { ServiceResolver } from '../outbound/service-resolver.js';
import type { UserInfo } from '../request/user-info.js';
import { apiServiceSpec, availableCondition, type ApiService } from './apiservice.js';
import type { FrontProxy } from './front-proxy.js';
import { responded, startRelay, writeBytes, writeStatus } from '../http/response-writer.js';

/** Headers never passed on: hop-by-hop ones, the caller's credentials, and identity headers a caller might forge. */
const droppedRequestHeaders = /^(connection|keep-alive|proxy-connection|transfer-encoding|upgrade|te|trailer|host|authorization|content-length|impersonate-.*|x-remote-.*|:.*)$/i;
const droppedResponseHeaders = /^(connection|keep-alive|transfer-encoding|content-length|trailer|upgrade|proxy-connection|:.*)$/i;

/** Answers up to this size are relayed in one write; larger ones, or of unknown size (watches), stream. */
const bufferedAnswerBytes = 1024 * 1024;

/** The identity headers of a user, as kube's transport.SetAuthProxyHeaders writes them. */
export function identityHeaders(user: Pick<UserInfo, 'username' | 'groups' | 'extra'>): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = { 'X-Remote-User': user.username };
  if (user.groups.length > 0) headers['X-Remote-Group'] = [...user.groups];
  for (const [k, values] of Object.entries(user.extra ?? {})) headers[`X-Remote-Extra-${encodeURIComponent(k)}`] = [...values];
  return headers;
}

/** What the proxy needs. */
export interface ProxyOptions {
  readonly frontProxy: FrontProxy;
  readonly services: ServiceResolver;
}

/** The TLS trust of an APIService (CA bundle, or no verification). */
export function apiServiceTrust(a: ApiService): { ca?: string; insecureSkipVerify?: boolean } {
  const spec = apiServiceSpec(a);
  if (spec.insecureSkipTLSVerify === true) return { insecureSkipVerify: true };
  return spec.caBundle ? { ca: Buffer.from(spec.caBundle, 'base64').toString('utf8') } : {};
}

/**
 * Targets by APIService object: the informer replaces the object when it changes, and its target goes with it
 * (connections of settings no longer used close once idle).
 */
const targets = new WeakMap<ApiService, HttpsTarget>();

/**
 * How the aggregator reaches an APIService's server (its trust, the Service's DNS name, the front-proxy client
 * certificate), made once per APIService version with a kept-alive connection pool, as kube-aggregator keeps one
 * transport per APIService; requests of it only choose an endpoint. The pool offers HTTP/2 by ALPN (every API
 * server built on kube's library takes it) and speaks HTTP/1.1 to servers that do not. No timeout: watches are long.
 */
export function apiServiceTarget(a: ApiService, frontProxy: FrontProxy): HttpsTarget {
  let target = targets.get(a);
  if (target === undefined) {
    const ref = apiServiceSpec(a).service ?? {};
    target = pooledTarget({
      ...apiServiceTrust(a), serverName: `${ref.name ?? ''}.${ref.namespace ?? ''}.svc`,
      cert: frontProxy.clientCertPem, key: frontProxy.clientKeyPem, timeoutMs: 0, offerHttp2: true,
    });
    targets.set(a, target);
  }
  return target;
}

/** Proxies the request to the APIService's server. */
export async function proxyToApiService(ctx: RequestContext, apiService: ApiService, options: ProxyOptions): Promise<void> {
  if (availableCondition(apiService)?.status !== 'True') return writeStatus(ctx, serviceUnavailable('service unavailable'));
  const ref = apiServiceSpec(apiService).service ?? {};
  const namespace = ref.namespace ?? '';
  const name = ref.name ?? '';
  const address = await options.services.resolve(namespace, name, ref.port ?? 443);
  if (!address.ok) return writeStatus(ctx, serviceUnavailable(address.error));
  let body: Buffer | undefined;
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
    const read = await ctx.transport.readBody();
    if (!read.ok) return writeStatus(ctx, read.error);
    body = read.value;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(ctx.headers)) if (v !== undefined && !droppedRequestHeaders.test(k)) headers[k] = v;
  Object.assign(headers, identityHeaders(ctx.user));
  if (body !== undefined) headers['content-length'] = String(body.length);
  const query = ctx.query.toString();
  const answered = await httpsExchange(
    { host: address.value.host, port: address.value.port, path: `${ctx.path}${query === '' ? '' : `?${query}`}` },
    { method: ctx.method, headers, signal: ctx.signal, ...(body !== undefined ? { body } : {}) },
    apiServiceTarget(apiService, options.frontProxy),
  );
  if (!answered.ok) {
    if (!responded(ctx)) writeStatus(ctx, serviceUnavailable(`error trying to reach service: ${answered.error}`));
    return;
  }
  const res = answered.value;
  const relayed: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined && !droppedResponseHeaders.test(k)) relayed[k] = v;
  const length = Number(res.headers['content-length'] ?? NaN);
  await new Promise<void>((resolve) => {
    if (Number.isFinite(length) && length <= bufferedAnswerBytes) {
      // An answer of known, modest size goes out in one write: headers and body in the same packets.
      const chunks: Buffer[] = [];
      let received = 0;
      res.body.on('data', (c: Buffer) => {
        chunks.push(c);
        received += c.length;
      });
      // Answers to HEAD and 204/304 answers announce a length they do not carry.
      const announcesBody = ctx.method !== 'HEAD' && res.status !== 204 && res.status !== 304;
      let settled = false;
      const settle = (): void => {
        if (settled) return;
        settled = true;
        // Shorter than announced, or ended by an error: the connection went mid-answer (node's HTTP/2 client ends
        // such a body as if complete). Nothing was relayed yet, so the client gets kube's 503, never a cut answer.
        if ((announcesBody && received !== length) || res.body.errored) {
          writeStatus(ctx, serviceUnavailable('error trying to reach service: the answer was cut off'));
        } else {
          const { 'content-type': type, ...rest } = relayed;
          const flat = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]));
          writeBytes(ctx, res.status, typeof type === 'string' ? type : '', chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received), flat);
        }
        resolve();
      };
      res.body.on('end', settle);
      res.body.on('close', settle);
      res.body.on('error', settle);
      return;
    }
    const stream = startRelay(ctx, res.status, relayed);
    res.body.on('data', (chunk: Buffer) => {
      if (!stream.write(chunk)) {
        res.body.pause();
        void stream.drain().then(() => res.body.resume());
      }
    });
    const finish = (): void => {
      stream.end();
      resolve();
    };
    res.body.on('end', finish);
    res.body.on('error', finish);
    res.body.on('close', finish);
  });
}
