/**
 * Keep-alive connection pools of the outbound client, one per set of TLS settings (trust, client certificate and
 * key, the name to verify), as kube-apiserver keeps one Go transport per webhook client config and per APIService.
 * The settings become one secure context when the pool is made, so a call neither parses PEM nor hashes it: a
 * request names its pool by a short key (host, port, server name), where node's shared agent would make the key of
 * every request from the whole PEM text. New connections resume TLS sessions the pool cached.
 *
 * Pools are shared by callers with the same settings (every webhook of a configuration with one CA bundle) and kept
 * for the most recently used settings; the connections of a pool nobody uses any more close once idle.
 */
import { Agent } from 'node:https';
import { checkServerIdentity, createSecureContext, type PeerCertificate } from 'node:tls';
import { Http2Sessions } from './http2-sessions.js';

/** What a TLS connection to a server needs. */
export interface TlsSettings {
  /** PEM CA bundle; the host's root CAs when absent. */
  readonly ca?: string;
  /** Client certificate and key (PEM). */
  readonly cert?: string;
  readonly key?: string;
  /** The name the server certificate must carry when it differs from the URL's host (a Service's DNS name). */
  readonly serverName?: string;
  readonly insecureSkipVerify?: boolean;
  /**
   * Offer HTTP/2 by ALPN and use it for requests to servers that accept (http2-sessions.ts), as Go's transport
   * does for webhooks and the aggregator's proxy; HTTP/1.1 otherwise.
   */
  readonly offerHttp2?: boolean;
  /**
   * The kept-alive connections of these settings ({@link pooledTarget}), which then carry the trust and the client
   * certificate; node's shared agent otherwise.
   */
  readonly agent?: Agent;
}

/** How long an idle kept-alive connection stays open (node's shared agent's figure). */
export const idleConnectionMs = 5000;
/** Pools kept for reuse; settings used less recently are dropped first. */
const maxPools = 256;

const pools = new Map<string, Agent>();
/** The settings each pool was made for. */
const settingsOf = new WeakMap<Agent, TlsSettings>();
/** The HTTP/2 sessions of pools made with `offerHttp2`. */
const sessionsOf = new WeakMap<Agent, Http2Sessions>();

/** Verifies the certificate against `name` instead of the connected host (an endpoint address). */
export function serverIdentityOf(name: string): (host: string, cert: PeerCertificate) => Error | undefined {
  return (_host, cert) => checkServerIdentity(name, cert);
}

function makePool(target: TlsSettings): Agent | undefined {
  try {
    const secureContext = createSecureContext({
      ...(target.ca !== undefined ? { ca: target.ca } : {}),
      ...(target.cert !== undefined ? { cert: target.cert } : {}),
      ...(target.key !== undefined ? { key: target.key } : {}),
    });
    const agent = new Agent({
      keepAlive: true, timeout: idleConnectionMs, scheduling: 'lifo', secureContext, rejectUnauthorized: target.insecureSkipVerify !== true,
      // A Service's DNS name is verified against the certificate although the connection goes to an endpoint.
      ...(target.serverName !== undefined ? { servername: target.serverName, checkServerIdentity: serverIdentityOf(target.serverName) } : {}),
    });
    if (target.offerHttp2 === true) {
      sessionsOf.set(agent, new Http2Sessions({
        secureContext, idleMs: idleConnectionMs, insecureSkipVerify: target.insecureSkipVerify === true,
        ...(target.serverName !== undefined ? { serverName: target.serverName, checkServerIdentity: serverIdentityOf(target.serverName) } : {}),
      }));
    }
    return agent;
  } catch {
    // A CA bundle, certificate or key that does not parse: the request fails on it, as it would without a pool.
    return undefined;
  }
}

/**
 * `target` with the pool of its TLS settings, made on first use (or as given when its settings do not parse, so
 * that its requests fail on them as they would have): callers resolve a target once per configuration (a webhook,
 * an APIService) and send every request of it through the returned one.
 */
export function pooledTarget<T extends TlsSettings>(target: T): T & Pick<TlsSettings, 'agent'> {
  const key = JSON.stringify([
    target.ca ?? null, target.cert ?? null, target.key ?? null, target.serverName ?? null, target.insecureSkipVerify === true, target.offerHttp2 === true,
  ]);
  let agent = pools.get(key);
  if (agent !== undefined) {
    pools.delete(key);
  } else {
    agent = makePool(target);
    if (agent === undefined) return target;
    settingsOf.set(agent, target);
  }
  pools.set(key, agent);
  if (pools.size > maxPools) pools.delete(pools.keys().next().value!);
  return { ...target, agent };
}

/**
 * The pool a target's requests go through: its own, unless the target was changed since it was pooled (another
 * server name, another CA), when its requests carry their TLS settings themselves.
 */
export function poolOf(target: TlsSettings): Agent | undefined {
  const agent = target.agent;
  if (agent === undefined) return undefined;
  const made = settingsOf.get(agent);
  const same = made !== undefined && made.ca === target.ca && made.cert === target.cert && made.key === target.key
    && made.serverName === target.serverName && (made.insecureSkipVerify === true) === (target.insecureSkipVerify === true);
  return same ? agent : undefined;
}

/** The sessions of each target (null: none), found once per target: targets do not change. */
const targetSessions = new WeakMap<TlsSettings, Http2Sessions | null>();

/** The HTTP/2 sessions a target's requests try first: its pool's, when the pool offers HTTP/2. */
export function http2SessionsOf(target: TlsSettings): Http2Sessions | undefined {
  if (target.offerHttp2 !== true) return undefined;
  let sessions = targetSessions.get(target);
  if (sessions === undefined) {
    const agent = poolOf(target);
    sessions = (agent === undefined ? undefined : sessionsOf.get(agent)) ?? null;
    targetSessions.set(target, sessions);
  }
  return sessions ?? undefined;
}
