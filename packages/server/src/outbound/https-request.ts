/**
 * The one HTTPS client for every call the server makes to another server (DESIGN.md §Seams): OIDC discovery and
 * keys, token and authorization webhooks, admission and conversion webhooks, the aggregator's proxy, audit
 * webhooks. A target carries the TLS trust (a CA bundle, or the host's roots), the server name to verify, client
 * credentials (certificate, bearer token or basic auth), a timeout, and the connection pool of its TLS settings when
 * the caller made one (connection-pool.ts); failures come back as values (`Result<T, string>`: messages meant for
 * logs and for the causes clients see). Callers that send many requests to one place parse its URL once
 * ({@link parseHttpsUrl}).
 */
import { validateHeaderValue, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request } from 'node:https';
import { fail, ok, type Result } from '@svc-apiserver/api';
import { http2SessionsOf, poolOf, serverIdentityOf, type TlsSettings } from './connection-pool.js';
import type { Readable } from 'node:stream';
import { abortedMessage, type AbortHook, type Http2Sessions, type StreamAnswer, type StreamRequest } from './http2-sessions.js';

/** Where and how to connect: the TLS settings (connection-pool.ts), and what each request carries. */
export interface HttpsTarget extends TlsSettings {
  /** Bearer token sent as `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Basic auth (a kubeconfig user's `username` and `password`). */
  readonly basicAuth?: { readonly username: string; readonly password: string };
  readonly headers?: Readonly<Record<string, string>>;
  /** Gives up after this long without an answer (default 10 s); 0 disables (long-running proxied requests). */
  readonly timeoutMs?: number;
}

/** An https URL split once, for requests sent to one place many times. */
export interface RequestUrl {
  /** The host to connect to (an IPv6 address without brackets). */
  readonly host: string;
  readonly port: number;
  /** The path with its query. */
  readonly path: string;
}

/** Splits an https URL; anything else is a failure. */
export function parseHttpsUrl(url: string): Result<RequestUrl, string> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return fail(`invalid URL ${JSON.stringify(url)}`);
  }
  if (u.protocol !== 'https:') return fail(`only https URLs are allowed: ${url}`);
  const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
  return ok({ host, port: u.port === '' ? 443 : Number(u.port), path: `${u.pathname}${u.search}` });
}

/** The `host:port` of a request URL, as messages name it. */
function hostOf(url: RequestUrl): string {
  return `${url.host.includes(':') ? `[${url.host}]` : url.host}${url.port === 443 ? '' : `:${url.port}`}`;
}

/** How long a request to `u` may go without activity (the target's timeout, 10 s by default; 0: no limit), and the message past it. */
function idleTimeoutOf(target: HttpsTarget, u: RequestUrl): { readonly ms: number; readonly message: string } | undefined {
  const ms = target.timeoutMs ?? 10_000;
  return ms > 0 ? { ms, message: `request to ${hostOf(u)} timed out after ${ms}ms` } : undefined;
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

/** The message of a request given up at its deadline (the words of Go's context, as kube's callers show them). */
export const deadlineExceeded = 'context deadline exceeded';

/** The headers a request to `target` carries: the target's, the call's, and the target's credentials. */
function requestHeaders(target: HttpsTarget, own: OutgoingHttpHeaders | undefined): OutgoingHttpHeaders {
  // A target that adds nothing (the aggregator's) sends the call's own headers as they are: no copy per request.
  if (target.headers === undefined && target.token === undefined && target.basicAuth === undefined) return own ?? {};
  const headers: OutgoingHttpHeaders = target.headers === undefined ? { ...own } : { ...target.headers, ...own };
  if (target.token !== undefined) headers.authorization = `Bearer ${target.token}`;
  else if (target.basicAuth !== undefined) {
    headers.authorization = `Basic ${Buffer.from(`${target.basicAuth.username}:${target.basicAuth.password}`).toString('base64')}`;
  }
  return headers;
}

/**
 * Opens a request and leaves its body and response to the caller (the aggregator's proxy pipes both); the
 * response and errors arrive on the returned ClientRequest as usual. A URL that is not https, or headers Node
 * refuses, are failures here rather than throws.
 */
export function openHttpsRequest(url: string | RequestUrl, options: OpenRequestOptions): Result<ClientRequest, string> {
  const parsed = typeof url === 'string' ? parseHttpsUrl(url) : ok(url);
  if (!parsed.ok) return parsed;
  const u = parsed.value;
  const { target } = options;
  const headers = requestHeaders(target, options.headers);
  const agent = poolOf(target);
  try {
    const req = request({
      host: u.host, port: u.port, path: u.path, method: options.method, headers,
      ...(options.signal !== undefined ? { signal: options.signal } : {}),
      ...(agent !== undefined ? { agent } : {
        ...(target.ca !== undefined ? { ca: target.ca } : {}),
        ...(target.cert !== undefined ? { cert: target.cert } : {}),
        ...(target.key !== undefined ? { key: target.key } : {}),
        ...(target.serverName !== undefined ? { servername: target.serverName } : {}),
        rejectUnauthorized: target.insecureSkipVerify !== true,
        // A Service's DNS name is verified against the certificate although the connection goes to an endpoint.
        ...(target.serverName !== undefined ? { checkServerIdentity: serverIdentityOf(target.serverName) } : {}),
      }),
    });
    const idle = idleTimeoutOf(target, u);
    if (idle !== undefined) req.setTimeout(idle.ms, () => req.destroy(new Error(idle.message)));
    return ok(req);
  } catch (e) {
    // Bad header values (a credential with a newline) and bad PEM throw synchronously.
    return fail((e as Error).message);
  }
}

/** Options of a buffered request. */
export interface RequestOptions {
  /** Ends the exchange when aborted. */
  readonly signal?: AbortSignal;
  /**
   * Bounds the whole exchange, an answer trickling in included (which the target's idle timeout does not catch):
   * past it the request fails with {@link deadlineExceeded}. It stands in for the idle timeout.
   */
  readonly deadlineMs?: number;
}

/**
 * Sends one request and buffers the answer (up to {@link maxResponseBytes}): as a stream of an HTTP/2 session when
 * the target's pool offers HTTP/2 and the server took it, over HTTP/1.1 otherwise.
 */
export async function httpsRequest(
  url: string | RequestUrl, method: string, target: HttpsTarget, body?: string | Uint8Array, options: RequestOptions = {},
): Promise<Result<HttpsResponse, string>> {
  const sessions = http2SessionsOf(target);
  if (sessions !== undefined) {
    const parsed = typeof url === 'string' ? parseHttpsUrl(url) : ok(url);
    if (!parsed.ok) return parsed;
    // A server known to speak only HTTP/1.1 goes straight to the pool's agent.
    if (sessions.current(parsed.value) !== 'http/1.1') {
      const answered = await http2Request(sessions, parsed.value, method, target, body, options);
      if (answered !== undefined) return answered;
    }
  }
  return http1Request(url, method, target, body, options);
}

/** The headers of a target as its HTTP/2 calls send them, checked once per target (targets do not change). */
const http2Headers = new WeakMap<HttpsTarget, Result<OutgoingHttpHeaders, string>>();

/**
 * The headers of every HTTP/2 call to `target`, or why they cannot be sent: node's HTTP/2 client sends values its
 * HTTP/1.1 client refuses (a credential with a newline), refused alike here.
 */
function http2BaseHeaders(target: HttpsTarget): Result<OutgoingHttpHeaders, string> {
  let made = http2Headers.get(target);
  if (made !== undefined) return made;
  const headers = requestHeaders(target, undefined);
  try {
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) validateHeaderValue(name, String(value));
    made = ok(headers);
  } catch (e) {
    made = fail((e as Error).message);
  }
  http2Headers.set(target, made);
  return made;
}

/** Gives up on `pending` after `ms` with `message` (a request's deadline or idle timeout while connecting). */
function bounded<T>(pending: Promise<Result<T, string>>, ms: number | undefined, message: string): Promise<Result<T, string>> {
  if (ms === undefined || ms <= 0) return pending;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<Result<T, string>>((resolve) => {
    timer = setTimeout(() => resolve(fail(message)), ms);
  });
  return Promise.race([pending, expired]).finally(() => clearTimeout(timer));
}

/**
 * Sends a request as a stream of one of `sessions` (http2-sessions.ts): the answer's head, or undefined when the
 * server speaks only HTTP/1.1. The request's deadline, or else its idle timeout, bounds the wait for a session. A
 * stream the server refused unprocessed (its session closing) is sent once more on a new session, as Go's
 * transport retries it.
 */
async function http2Exchange(sessions: Http2Sessions, u: RequestUrl, request: StreamRequest): Promise<Result<StreamAnswer, string> | undefined> {
  for (let attempt = 0; attempt < 2; attempt++) {
    let session = sessions.current(u);
    if (session === undefined) {
      const { deadline, idle } = request;
      const ms = deadline !== undefined ? deadline.at - performance.now() : idle?.ms;
      if (deadline !== undefined && ms! <= 0) return fail(deadline.message);
      const made = await bounded(sessions.session(u), ms, (deadline ?? idle)?.message ?? '');
      if (!made.ok) return made;
      session = made.value;
    }
    if (session === 'http/1.1') return undefined;
    if (request.signal?.aborted === true) return fail(abortedMessage);
    const outcome = await sessions.open(session, request);
    if (outcome !== 'refused') return outcome;
    sessions.drop(u, session);
  }
  return fail(`${hostOf(u)} refused the request`);
}

/** `resolve` that takes the first outcome only (the events of a failing exchange race), after `cleanup`. */
function settleOnce<T>(resolve: (outcome: T) => void, cleanup?: () => void): (outcome: T) => void {
  let settled = false;
  return (outcome) => {
    if (settled) return;
    settled = true;
    cleanup?.();
    resolve(outcome);
  };
}

/** Reads an answer's body whole, up to `maxBytes` (past that, fails with `tooLarge` and ends the body's stream). */
function readBody(body: Readable, maxBytes: number, tooLarge: string): Promise<Result<Buffer, string>> {
  return new Promise((resolve) => {
    const settle = settleOnce(resolve);
    const chunks: Buffer[] = [];
    let size = 0;
    body.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) {
        settle(fail(tooLarge));
        body.destroy();
        return;
      }
      chunks.push(c);
    });
    body.on('end', () => settle(ok(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size))));
    body.on('error', (e) => settle(fail(e.message)));
    body.on('close', () => settle(fail(`stream closed with error code ${(body as { rstCode?: number }).rstCode ?? 0}`)));
  });
}

/**
 * {@link httpsRequest} over HTTP/2: the answer buffered, or undefined when the server speaks only HTTP/1.1. The
 * target's idle timeout bounds the wait for a session and the stream's silences; a deadline, when given, bounds
 * the whole exchange instead.
 */
async function http2Request(
  sessions: Http2Sessions, u: RequestUrl, method: string, target: HttpsTarget, body: string | Uint8Array | undefined, options: RequestOptions,
): Promise<Result<HttpsResponse, string> | undefined> {
  const idle = idleTimeoutOf(target, u);
  const base = http2BaseHeaders(target);
  if (!base.ok) return base;
  const headers = body === undefined ? base.value : { ...base.value, 'content-length': Buffer.byteLength(body) };
  const deadlineMs = options.deadlineMs;
  const answered = await http2Exchange(sessions, u, {
    method, path: u.path, headers, ...(body === undefined ? {} : { body }), ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(deadlineMs === undefined ? (idle === undefined ? {} : { idle }) : { deadline: { at: performance.now() + deadlineMs, message: deadlineExceeded } }),
  });
  if (answered === undefined || !answered.ok) return answered;
  const { status, headers: answerHeaders, body: stream } = answered.value;
  const read = await readBody(stream, maxResponseBytes, `response from ${hostOf(u)} is larger than ${maxResponseBytes} bytes`);
  return read.ok ? ok({ status, headers: answerHeaders, body: read.value }) : read;
}

/** What a streamed request ({@link httpsExchange}) carries. */
export interface ExchangeRequest {
  readonly method: string;
  readonly headers: OutgoingHttpHeaders;
  readonly body?: Uint8Array;
  /** Ends the exchange (a proxied client going away). */
  readonly signal?: AbortSignal;
  /** Ends the exchange as `signal` does, for a caller told of its end without a signal (the aggregator's proxy). */
  readonly onAbort?: AbortHook;
}

/** A streamed answer's head; its body follows on `body`. */
export interface ExchangeResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The body as it arrives ('data', 'end', 'error', 'close'; pause and resume for backpressure). */
  readonly body: Readable;
  /** The protocol the answer came by: `2` or `1.1`. */
  readonly httpVersion: '2' | '1.1';
}

/**
 * Sends a request and returns the answer's head with its body streaming (the aggregator's proxy relays it, watches
 * included): as a stream of an HTTP/2 session when the target's pool offers HTTP/2 and the server took it, over
 * the pool's HTTP/1.1 connections otherwise, as Go's transport does with HTTP/2 enabled.
 */
export async function httpsExchange(u: RequestUrl, request: ExchangeRequest, target: HttpsTarget): Promise<Result<ExchangeResponse, string>> {
  const sessions = http2SessionsOf(target);
  if (sessions !== undefined && sessions.current(u) !== 'http/1.1') {
    const idle = idleTimeoutOf(target, u);
    const answered = await http2Exchange(sessions, u, {
      method: request.method, path: u.path, headers: requestHeaders(target, request.headers),
      ...(request.body === undefined ? {} : { body: request.body }), ...(request.signal === undefined ? {} : { signal: request.signal }),
      ...(request.onAbort === undefined ? {} : { onAbort: request.onAbort }), ...(idle === undefined ? {} : { idle }),
    });
    if (answered !== undefined) return answered.ok ? ok({ ...answered.value, httpVersion: '2' }) : answered;
  }
  const opened = openHttpsRequest(u, {
    method: request.method, headers: request.headers, target, ...(request.signal !== undefined ? { signal: request.signal } : {}),
  });
  if (!opened.ok) return opened;
  const req = opened.value;
  request.onAbort?.(() => req.destroy(new Error(abortedMessage)));
  return new Promise((resolve) => {
    req.on('response', (res) => resolve(ok({ status: res.statusCode ?? 502, headers: res.headers, body: res, httpVersion: '1.1' })));
    // After the answer began, errors end its body ('close' without 'end'), which the caller sees.
    req.on('error', (e) => resolve(fail(e.message)));
    req.end(request.body);
  });
}

/** {@link httpsRequest} over HTTP/1.1 through the target's pool (or node's shared agent). */
function http1Request(
  url: string | RequestUrl, method: string, target: HttpsTarget, body?: string | Uint8Array, options: RequestOptions = {},
): Promise<Result<HttpsResponse, string>> {
  const headers: OutgoingHttpHeaders = body === undefined ? {} : { 'content-length': Buffer.byteLength(body) };
  const deadlineMs = options.deadlineMs;
  const opened = openHttpsRequest(url, {
    method, headers, target: deadlineMs === undefined ? target : { ...target, timeoutMs: 0 },
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (!opened.ok) return Promise.resolve(opened);
  const req = opened.value;
  return new Promise((resolve) => {
    const settle = settleOnce(resolve, () => clearTimeout(timer));
    const timer = deadlineMs === undefined ? undefined : setTimeout(() => {
      settle(fail(deadlineExceeded));
      req.destroy();
    }, deadlineMs);
    req.on('response', (res: IncomingMessage) => {
      const tooLarge = `response from ${typeof url === 'string' ? new URL(url).host : hostOf(url)} is larger than ${maxResponseBytes} bytes`;
      void readBody(res, maxResponseBytes, tooLarge).then((read) => settle(read.ok ? ok({ status: res.statusCode ?? 0, headers: res.headers, body: read.value }) : read));
    });
    req.on('error', (e) => settle(fail(e.message)));
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

const jsonHeaders = { 'content-type': 'application/json', accept: 'application/json' };

/** Each target with the JSON headers added, made once per target so that its per-target preparations hold. */
const jsonTargets = new WeakMap<HttpsTarget, HttpsTarget>();

function jsonTargetOf(target: HttpsTarget): HttpsTarget {
  let json = jsonTargets.get(target);
  if (json === undefined) jsonTargets.set(target, (json = { ...target, headers: target.headers === undefined ? jsonHeaders : { ...jsonHeaders, ...target.headers } }));
  return json;
}

/** POSTs a JSON document and parses the JSON answer of any status (webhook reviews); options as for httpsRequest. */
export function httpsPostJson(
  url: string | RequestUrl, target: HttpsTarget, document: unknown, options: RequestOptions = {},
): Promise<Result<{ status: number; body: unknown }, string>> {
  return httpsPostJsonText(url, target, JSON.stringify(document), options);
}

/** {@link httpsPostJson} of a document already encoded (one review sent to several webhooks is encoded once). */
export async function httpsPostJsonText(
  url: string | RequestUrl, target: HttpsTarget, text: string, options: RequestOptions = {},
): Promise<Result<{ status: number; body: unknown }, string>> {
  const res = await httpsRequest(url, 'POST', jsonTargetOf(target), text, options);
  if (!res.ok) return res;
  try {
    return ok({ status: res.value.status, body: JSON.parse(res.value.body.toString('utf8')) });
  } catch {
    return fail(`${typeof url === 'string' ? url : `https://${hostOf(url)}${url.path}`}: status ${res.value.status}, response is not JSON`);
  }
}
