/**
 * The one HTTPS client for every call the server makes to another server (DESIGN.md §Seams): OIDC discovery and
 * keys, token and authorization webhooks, admission and conversion webhooks, the aggregator's proxy, audit
 * webhooks. A target carries the TLS trust (a CA bundle, or the host's roots), the server name to verify, client
 * credentials (certificate, bearer token or basic auth) and a timeout; failures come back as values
 * (`Result<T, string>`: messages meant for logs and for the causes clients see).
 */
import type { ClientRequest, IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import { fail, ok, type Result } from '@svc-apiserver/api';

/** Where and how to connect. */
export interface HttpsTarget {
  /** PEM CA bundle; the host's root CAs when absent. */
  readonly ca?: string;
  /** Client certificate and key (PEM). */
  readonly cert?: string;
  readonly key?: string;
  /** Bearer token sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Basic auth (a kubeconfig user's `username` and `password`). */
  readonly basicAuth?: { readonly username: string; readonly password: string };
  /** The name the server certificate must carry when it differs from the URL's host (a Service's DNS name). */
  readonly serverName?: string;
  readonly insecureSkipVerify?: boolean;
  readonly headers?: Readonly<Record<string, string>>;
  /** Gives up after this long without an answer (default 10 s); 0 disables (long-running proxied requests). */
  readonly timeoutMs?: number;
}

/** A buffered response: status, headers and body. */
export interface HttpsResponse {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
}

/** Largest buffered response body: answers of webhooks and discovery documents are small. */
export const maxResponseBytes = 4 * 1024 * 1024;

/** What a streaming request is opened with. */
export interface OpenRequestOptions {
  readonly method: string;
  readonly headers?: OutgoingHttpHeaders;
  readonly target: HttpsTarget;
  /** Aborts the request (a proxied client going away). */
  readonly signal?: AbortSignal;
}

/**
 * Opens a request and leaves its body and response to the caller (the aggregator's proxy pipes both); the
 * response and errors arrive on the returned ClientRequest as usual. A URL that is not https, or headers Node
 * refuses, are failures here rather than throws.
 */
export function openHttpsRequest(url: string, options: OpenRequestOptions): Result<ClientRequest, string> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return fail(`invalid URL ${JSON.stringify(url)}`);
  }
  if (u.protocol !== 'https:') return fail(`only https URLs are allowed: ${url}`);
  const { target } = options;
  const headers: OutgoingHttpHeaders = { ...(target.headers ?? {}), ...(options.headers ?? {}) };
  if (target.token !== undefined) headers.authorization = `Bearer ${target.token}`;
  else if (target.basicAuth !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${target.basicAuth.username}:${target.basicAuth.password}`).toString('base64')}`;
  }
  try {
    const req = request(u, {
      method: options.method,
      headers,
      ...(target.ca !== undefined ? { ca: target.ca } : {}),
      ...(target.cert !== undefined ? { cert: target.cert } : {}),
      ...(target.key !== undefined ? { key: target.key } : {}),
      ...(target.serverName !== undefined ? { servername: target.serverName } : {}),
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
      rejectUnauthorized: target.insecureSkipVerify !== true,
      // A Service's DNS name is verified against the certificate although the connection goes to an endpoint.
      ...(target.serverName !== undefined ? { checkServerIdentity: serverIdentityOf(target.serverName) } : {}),
    });
    const timeoutMs = target.timeoutMs ?? 10_000;
    if (timeoutMs > 0) {
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`request to ${u.host} timed out after ${timeoutMs}ms`)));
    }
    return ok(req);
  } catch (e) {
    // Bad header values (a credential with a newline) and bad PEM throw synchronously.
    return fail((e as Error).message);
  }
}

/**
 * Sends one request and buffers the answer (up to {@link maxResponseBytes}). `signal` ends the whole exchange (a
 * deadline for an answer that trickles in, which the idle timeout does not catch).
 */
export function httpsRequest(url: string, method: string, target: HttpsTarget, body?: string | Uint8Array, signal?: AbortSignal): Promise<Result<HttpsResponse, string>> {
  const headers: OutgoingHttpHeaders = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) };
  const opened = openHttpsRequest(url, { method, headers, target, ...(signal === undefined ? {} : { signal }) });
  if (!opened.ok) return Promise.resolve(opened);
  const req = opened.value;
  const host = new URL(url).host;
  return new Promise((resolve) => {
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxResponseBytes) {
          req.destroy();
          resolve(fail(`response from ${host} is larger than ${maxResponseBytes} bytes`));
          return;
        }
        chunks.push(c);
      });
      res.on('end', () => resolve(ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) })));
      res.on('error', (e) => resolve(fail(e.message)));
    });
    req.on('error', (e) => resolve(fail(e.message)));
    req.end(body);
  });
}

/** GETs a JSON document (status 200 required). */
export async function httpsGetJson(url: string, target: HttpsTarget): Promise<Result<unknown, string>> {
  const res = await httpsRequest(url, 'GET', { ...target, headers: { accept: 'application/json', ...(target.headers ?? {}) } });
  if (!res.ok) return res;
  if (res.value.status !== 200) return fail(`${url}: status ${res.value.status}`);
  try {
    return ok(JSON.parse(res.value.body.toString('utf8')));
  } catch {
    return fail(`${url}: response is not JSON`);
  }
}

/** POSTs a JSON document and parses the JSON answer of any status (webhook reviews); `signal` as for httpsRequest. */
export async function httpsPostJson(url: string, target: HttpsTarget, document: unknown, signal?: AbortSignal): Promise<Result<{ status: number; body: unknown }, string>> {
  const res = await httpsRequest(url, 'POST', {
    ...target,
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(target.headers ?? {}) },
  }, JSON.stringify(document), signal);
  if (!res.ok) return res;
  try {
    return ok({ status: res.value.status, body: JSON.parse(res.value.body.toString('utf8')) });
  } catch {
    return fail(`${url}: status ${res.value.status}, response is not JSON`);
  }
}

/** Verifies the certificate against `name` instead of the connected host (an endpoint address). */
function serverIdentityOf(name: string): (host: string, cert: PeerCertificate) => Error | undefined {
  return (_host, cert) => checkServerIdentity(name, cert);
}
