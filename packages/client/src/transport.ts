/**
 * The HTTP(S) transport: one keep-alive agent per client carrying the kubeconfig's TLS material, requests with the
 * client's credentials, and responses read whole (`send`) or handed over as a stream once headers arrive (`open`).
 * Hand-written over node:https because nothing else is needed: the standard agent already pools connections.
 */
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { fail, ok, type Result } from '@svc-apiserver/api';
import type { ConnectionConfig } from './kubeconfig.js';
import { transportFailure } from './call-failure.js';

/** One HTTP request, `path` including its query string. */
export interface HttpRequest {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  readonly signal?: AbortSignal;
  /** Give up after this long without a complete response (whole-body requests only). */
  readonly timeoutMs?: number;
}

/** A response read whole. */
export interface HttpResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** Options of a transport. */
export interface TransportOptions {
  readonly userAgent?: string;
  /** Sockets per host for whole-body requests; watches take their own. Default: unlimited. */
  readonly maxSockets?: number;
  /** Default timeout of whole-body requests in ms. Default 60 s. */
  readonly timeoutMs?: number;
}

/** Sends requests to one server. */
export interface Transport {
  readonly config: ConnectionConfig;
  /** Sends a request and reads the whole response; any HTTP status is a success here. */
  send(req: HttpRequest): Promise<Result<HttpResponse>>;
  /** Sends a request and resolves once the response headers are in, leaving the body to the caller. */
  open(req: HttpRequest): Promise<Result<IncomingMessage>>;
  /** Closes pooled connections. */
  close(): void;
}

/** Makes a transport for a connection config. */
export function createTransport(config: ConnectionConfig, options: TransportOptions = {}): Transport {
  const url = new URL(config.server);
  const secure = url.protocol === 'https:';
  const agentOptions: https.AgentOptions = { keepAlive: true };
  if (options.maxSockets !== undefined) agentOptions.maxSockets = options.maxSockets;
  if (secure) {
    if (config.ca) agentOptions.ca = config.ca;
    if (config.cert) agentOptions.cert = config.cert;
    if (config.key) agentOptions.key = config.key;
    agentOptions.rejectUnauthorized = config.insecureSkipTlsVerify !== true;
    if (config.tlsServerName) agentOptions.servername = config.tlsServerName;
  }
  const agent = secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  // Watches hold a connection for their whole life; a separate pool keeps them from starving ordinary requests.
  const streamAgent = secure ? new https.Agent({ ...agentOptions, maxSockets: Infinity }) : new http.Agent({ keepAlive: true });
  const basePath = url.pathname.replace(/\/+$/, '');
  const defaultTimeout = options.timeoutMs ?? 60_000;

  const baseHeaders: Record<string, string> = { 'user-agent': options.userAgent ?? 'svc-apiserver-client/0.1.0' };
  if (config.token) baseHeaders.authorization = `Bearer ${config.token}`;
  else if (config.username !== undefined) {
    baseHeaders.authorization = `Basic ${Buffer.from(`${config.username}:${config.password ?? ''}`).toString('base64')}`;
  }

  function start(req: HttpRequest, useAgent: http.Agent, onResponse: (res: IncomingMessage) => void, onError: (e: Error) => void): http.ClientRequest {
    const headers: Record<string, string | number> = { ...baseHeaders, ...req.headers };
    if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
    const opts: https.RequestOptions = {
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || (secure ? 443 : 80),
      method: req.method,
      path: basePath + req.path,
      headers,
      agent: useAgent,
    };
    if (req.signal) opts.signal = req.signal;
    const r = (secure ? https : http).request(opts, onResponse);
    r.on('error', onError);
    r.end(req.body);
    return r;
  }

  return {
    config,
    send(req) {
      return new Promise((resolve) => {
        let settled = false;
        const settle = (v: Result<HttpResponse>): void => {
          if (!settled) {
            settled = true;
            resolve(v);
          }
        };
        const r = start(req, agent, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => settle(ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) })));
          res.on('error', (e) => settle(fail(transportFailure(`error reading response: ${e.message}`))));
        }, (e) => settle(fail(transportFailure(`${req.method} ${config.server}${req.path}: ${e.message}`))));
        const timeout = req.timeoutMs ?? defaultTimeout;
        if (timeout > 0) {
          r.setTimeout(timeout, () => {
            settle(fail(transportFailure(`${req.method} ${config.server}${req.path}: timed out after ${timeout}ms`)));
            r.destroy();
          });
        }
      });
    },
    open(req) {
      return new Promise((resolve) => {
        start(req, streamAgent, (res) => resolve(ok(res)), (e) =>
          resolve(fail(transportFailure(`${req.method} ${config.server}${req.path}: ${e.message}`))));
      });
    },
    close() {
      agent.destroy();
      streamAgent.destroy();
    },
  };
}
