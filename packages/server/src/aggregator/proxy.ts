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

/**
 * Headers never passed on: hop-by-hop ones, the caller's credentials, and identity headers a caller might forge
 * (with the prefixes below). Names are lowercase: node gives every incoming header so, on both protocols.
 */
const droppedRequestHeaders = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'authorization', 'content-length']);
const droppedRequestPrefixes = ['impersonate-', 'x-remote-', ':'];
const droppedResponseHeaders = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'trailer', 'upgrade', 'proxy-connection']);

/** Answers up to this size are relayed in one write; larger ones, or of unknown size (watches), stream. */
const bufferedAnswerBytes = 1024 * 1024;

/** True for an answer's header the proxy relays (not hop-by-hop, not a pseudo-header). */
function relayedAnswerHeader(name: string): boolean {
  return !droppedResponseHeaders.has(name) && name.charCodeAt(0) !== 0x3a;
}

/** True for a request header the proxy passes on. */
function passedOn(name: string): boolean {
  if (droppedRequestHeaders.has(name)) return false;
  for (const prefix of droppedRequestPrefixes) if (name.startsWith(prefix)) return false;
  return true;
}

/**
 * The headers of the proxied request, made in one pass: the caller's own that are passed on, and the caller's
 * identity (kube's transport.SetAuthProxyHeaders). The outbound client adds nothing to it: its only other copy is
 * the stream's own header list.
 */
function proxiedRequestHeaders(ctx: RequestContext, bodyLength: number | undefined): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  const given = ctx.headers;
  for (const name in given) {
    const value = given[name];
    if (value !== undefined && passedOn(name)) headers[name] = value;
  }
  addIdentityHeaders(headers, ctx.user);
  if (bodyLength !== undefined) headers['content-length'] = String(bodyLength);
  return headers;
}

/** Adds the identity headers of a user to `headers`, as kube's transport.SetAuthProxyHeaders writes them. */
function addIdentityHeaders(headers: Record<string, string | string[]>, user: Pick<UserInfo, 'username' | 'groups' | 'extra'>): Record<string, string | string[]> {
  headers['x-remote-user'] = user.username;
  // The user's own lists, not copies: the request only reads them.
  if (user.groups.length > 0) headers['x-remote-group'] = user.groups as string[];
  if (user.extra !== undefined) for (const k in user.extra) headers[`x-remote-extra-${encodeURIComponent(k)}`] = user.extra[k] as string[];
  return headers;
}

/** The identity headers of a user, as kube's transport.SetAuthProxyHeaders writes them. */
export function identityHeaders(user: Pick<UserInfo, 'username' | 'groups' | 'extra'>): Record<string, string | string[]> {
  return addIdentityHeaders({}, user);
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
  const query = ctx.query.toString();
  const answered = await httpsExchange(
    { host: address.value.host, port: address.value.port, path: query === '' ? ctx.path : `${ctx.path}?${query}` },
    // The client going away ends the stream; told by the transport, so that no AbortSignal is made per request.
    { method: ctx.method, headers: proxiedRequestHeaders(ctx, body?.length), onAbort: (stop) => ctx.transport.onAbort(stop), ...(body !== undefined ? { body } : {}) },
    apiServiceTarget(apiService, options.frontProxy),
  );
  if (!answered.ok) {
    if (!responded(ctx)) writeStatus(ctx, serviceUnavailable(`error trying to reach service: ${answered.error}`));
    return;
  }
  const res = answered.value;
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
          // The answer's headers in one pass: the relayed ones (lists joined), its Content-Type apart for the writer.
          let type = '';
          const relayed: Record<string, string> = {};
          for (const name in res.headers) {
            const value = res.headers[name];
            if (value === undefined || !relayedAnswerHeader(name)) continue;
            if (name === 'content-type') type = String(value);
            else relayed[name] = Array.isArray(value) ? value.join(', ') : value;
          }
          writeBytes(ctx, res.status, type, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received), relayed);
        }
        resolve();
      };
      res.body.on('end', settle);
      res.body.on('close', settle);
      res.body.on('error', settle);
      return;
    }
    const relayed: Record<string, string | string[]> = {};
    for (const name in res.headers) {
      const value = res.headers[name];
      if (value !== undefined && relayedAnswerHeader(name)) relayed[name] = value;
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
