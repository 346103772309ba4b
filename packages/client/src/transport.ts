/**
 * The HTTP(S) transport: keep-alive agents carrying the kubeconfig's TLS material (through `proxy-url` when set),
 * requests with the client's credentials, and responses read whole (`send`) or handed over as a stream once headers
 * arrive (`open`). Credentials are looked up per request, as client-go's round trippers do: a `tokenFile` is re-read
 * once a minute, and an exec plugin's credential is asked for each time (it is cached until expiry); when the
 * plugin hands out a different client certificate, new connections are made with it. A 401 to a request made with
 * a plugin's credential drops that credential and the request is sent once more with a fresh one.
 * Hand-written over node:https because the standard agent already pools connections.
 */
import { readFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import https from 'node:https';
import { HttpsProxyAgent } from 'https-proxy-agent';
import { SocksProxyAgent } from 'socks-proxy-agent';
import { fail, ok, type Result, type Status } from '@svc-apiserver/api';
import type { ConnectionConfig } from './kubeconfig.js';
import { transportFailure } from './call-failure.js';
import { sharedExecAuthenticator, type ExecAuthenticator, type ExecCredential } from './exec-credential.js';

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
  /** The exec plugin runner; default the process-wide one for the config's plugin. */
  readonly execAuthenticator?: ExecAuthenticator;
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

/** The credentials one request goes out with. */
interface Credentials {
  readonly authorization?: string;
  readonly cert?: Buffer | string;
  readonly key?: Buffer | string;
  /** The plugin credential used, so a 401 can drop exactly it. */
  readonly exec?: ExecCredential;
}

/** Two agents (ordinary requests, long-lived streams) for one client certificate. */
interface AgentPair {
  readonly identity: string;
  readonly agent: http.Agent;
  readonly streamAgent: http.Agent;
}

const tokenFileRefreshMs = 60_000;

/** Makes a transport for a connection config. */
export function createTransport(config: ConnectionConfig, options: TransportOptions = {}): Transport {
  const url = new URL(config.server);
  const secure = url.protocol === 'https:';
  const basePath = url.pathname.replace(/\/+$/, '');
  const defaultTimeout = options.timeoutMs ?? 60_000;
  const exec = options.execAuthenticator ?? (config.exec ? sharedExecAuthenticator(config.exec) : undefined);
  const userAgent = options.userAgent ?? 'svc-apiserver-client/0.1.0';

  function makeAgent(cert: Buffer | string | undefined, key: Buffer | string | undefined, maxSockets: number | undefined): http.Agent {
    const agentOptions: https.AgentOptions = { keepAlive: true };
    if (maxSockets !== undefined) agentOptions.maxSockets = maxSockets;
    if (secure) {
      if (config.ca) agentOptions.ca = config.ca;
      if (cert !== undefined) agentOptions.cert = cert;
      if (key !== undefined) agentOptions.key = key;
      agentOptions.rejectUnauthorized = config.insecureSkipTlsVerify !== true;
      if (config.tlsServerName) agentOptions.servername = config.tlsServerName;
    }
    if (config.proxyUrl) {
      const proxy = new URL(config.proxyUrl);
      if (proxy.protocol.startsWith('socks')) return new SocksProxyAgent(proxy, agentOptions);
      return new HttpsProxyAgent(proxy, agentOptions as never);
    }
    return secure ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  }

  let current: AgentPair | undefined;
  const retired: http.Agent[] = [];
  function agentsFor(cert: Buffer | string | undefined, key: Buffer | string | undefined): AgentPair {
    const identity = `${cert?.toString() ?? ''}\0${key?.toString() ?? ''}`;
    if (current?.identity === identity) return current;
    if (current !== undefined) {
      // A new certificate must not ride an old TLS session: idle sockets go now, busy ones when released.
      for (const a of [current.agent, current.streamAgent]) {
        a.maxFreeSockets = 0;
        for (const list of Object.values(a.freeSockets)) for (const s of list ?? []) s.destroy();
        retired.push(a);
      }
    }
    // Watches hold a connection for their whole life; a separate pool keeps them from starving ordinary requests.
    current = { identity, agent: makeAgent(cert, key, options.maxSockets), streamAgent: makeAgent(cert, key, Infinity) };
    return current;
  }

  let fileToken: { value: string; readAt: number } | undefined;
  function staticToken(): string | undefined {
    if (config.tokenFile === undefined) return config.token;
    const now = Date.now();
    if (fileToken === undefined || now - fileToken.readAt > tokenFileRefreshMs) {
      try {
        fileToken = { value: readFileSync(config.tokenFile, 'utf8').trim(), readAt: now };
      } catch {
        // a token file being rotated may be briefly absent: keep the last value, as client-go does
        fileToken = { value: fileToken?.value ?? config.token ?? '', readAt: now };
      }
    }
    return fileToken.value;
  }

  async function credentials(): Promise<Result<Credentials>> {
    if (exec !== undefined) {
      const c = await exec.credential();
      if (!c.ok) return c;
      const cred = c.value;
      const out: { -readonly [K in keyof Credentials]: Credentials[K] } = { exec: cred };
      if (cred.token !== undefined) out.authorization = `Bearer ${cred.token}`;
      if (cred.clientCertificateData !== undefined) out.cert = cred.clientCertificateData;
      if (cred.clientKeyData !== undefined) out.key = cred.clientKeyData;
      if (out.cert === undefined && config.cert) out.cert = config.cert;
      if (out.key === undefined && config.key) out.key = config.key;
      return ok(out);
    }
    const out: { -readonly [K in keyof Credentials]: Credentials[K] } = {};
    const token = staticToken();
    if (token) out.authorization = `Bearer ${token}`;
    else if (config.username !== undefined) {
      out.authorization = `Basic ${Buffer.from(`${config.username}:${config.password ?? ''}`).toString('base64')}`;
    }
    if (config.cert) out.cert = config.cert;
    if (config.key) out.key = config.key;
    return ok(out);
  }

  function start(req: HttpRequest, creds: Credentials, stream: boolean, onResponse: (res: IncomingMessage) => void, onError: (e: Error) => void): http.ClientRequest {
    const headers: Record<string, string | number> = { 'user-agent': userAgent, ...req.headers };
    if (creds.authorization !== undefined && headers.authorization === undefined) headers.authorization = creds.authorization;
    if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
    const agents = agentsFor(creds.cert, creds.key);
    const opts: https.RequestOptions = {
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port || (secure ? 443 : 80),
      method: req.method,
      path: basePath + req.path,
      headers,
      agent: stream ? agents.streamAgent : agents.agent,
    };
    if (req.signal) opts.signal = req.signal;
    const r = (secure ? https : http).request(opts, onResponse);
    r.on('error', onError);
    r.end(req.body);
    return r;
  }

  const failed = (req: HttpRequest, why: string): Status => transportFailure(`${req.method} ${config.server}${req.path}: ${why}`);

  function sendOnce(req: HttpRequest, creds: Credentials): Promise<Result<HttpResponse>> {
    return new Promise((resolve) => {
      let settled = false;
      const settle = (v: Result<HttpResponse>): void => {
        if (!settled) {
          settled = true;
          resolve(v);
        }
      };
      const r = start(req, creds, false, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => settle(ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) })));
        res.on('error', (e) => settle(fail(transportFailure(`error reading response: ${e.message}`))));
      }, (e) => settle(fail(failed(req, e.message))));
      const timeout = req.timeoutMs ?? defaultTimeout;
      if (timeout > 0) {
        r.setTimeout(timeout, () => {
          settle(fail(failed(req, `timed out after ${timeout}ms`)));
          r.destroy();
        });
      }
    });
  }

  function openOnce(req: HttpRequest, creds: Credentials): Promise<Result<IncomingMessage>> {
    return new Promise((resolve) => {
      start(req, creds, true, (res) => resolve(ok(res)), (e) => resolve(fail(failed(req, e.message))));
    });
  }

  /** Runs `attempt` with credentials; a 401 to a plugin credential drops it and tries once more with a fresh one. */
  async function withCredentials<T>(attempt: (creds: Credentials) => Promise<Result<T>>, statusOf: (v: T) => number, discard: (v: T) => void): Promise<Result<T>> {
    const creds = await credentials();
    if (!creds.ok) return creds;
    const first = await attempt(creds.value);
    const used = creds.value.exec;
    if (!first.ok || statusOf(first.value) !== 401 || used === undefined || exec === undefined) return first;
    exec.invalidate(used);
    const again = await credentials();
    if (!again.ok) return again;
    discard(first.value);
    return attempt(again.value);
  }

  return {
    config,
    send(req) {
      return withCredentials((c) => sendOnce(req, c), (r) => r.status, () => undefined);
    },
    open(req) {
      return withCredentials((c) => openOnce(req, c), (r) => r.statusCode ?? 0, (r) => r.destroy());
    },
    close() {
      current?.agent.destroy();
      current?.streamAgent.destroy();
      for (const a of retired.splice(0)) a.destroy();
    },
  };
}
