/**
 * Which requests skip the listener's queue. Under overload this server takes a request off its connection and only
 * queues it (see https-server.ts): the filter chain — authentication, impersonation, flow control, and a 429 for
 * the excess — runs in CPU-budgeted slices of later turns of the event loop, so that a burst read in one turn (a
 * thousand clients coming back together after their `Retry-After`) cannot make that turn last while new
 * connections, TLS handshakes and health checks wait. kube-apiserver needs no such queue: Go runs each request on a
 * goroutine of its own.
 *
 * Two kinds of request go ahead of that queue, served as they arrive, as kube's flow control exempts them:
 * health checks (`/livez`, `/readyz`, `/healthz` and their named checks, the `probes` FlowSchema's paths) and
 * requests of a connection whose client certificate the TLS layer verified against the client CAs and that names
 * `system:masters` (the admin kubeconfig), when they impersonate nobody. Going ahead changes only the order: such a
 * request passes the whole filter chain like any other, which authenticates it and decides its flow control.
 */
import type { Http2ServerRequest } from 'node:http2';
import type { TLSSocket } from 'node:tls';
import { systemPrivilegedGroup } from '../auth/authz/privileged-groups.js';
import type { NodeRequest } from './request-context.js';

/** The paths of the health endpoints (kube's `probes` FlowSchema: `/livez`, `/readyz`, `/healthz`, and below). */
const healthPath = /^\/(livez|readyz|healthz)(\/|$)/;

/** Per connection: whether its verified client certificate names `system:masters` (read once per connection). */
const privilegedConnections = new WeakMap<object, boolean>();

/** The TLS socket a request came on (HTTP/2: its session's). */
function tlsSocket(req: NodeRequest): TLSSocket | undefined {
  const socket = req.httpVersionMajor >= 2 ? (req as Http2ServerRequest).stream.session?.socket : req.socket;
  return socket as TLSSocket | undefined;
}

/** True when the connection's client certificate verified against the client CAs and names `system:masters`. */
function privilegedConnection(req: NodeRequest): boolean {
  const socket = tlsSocket(req);
  if (socket === undefined || typeof socket.getPeerCertificate !== 'function') return false;
  const known = privilegedConnections.get(socket);
  if (known !== undefined) return known;
  let privileged = false;
  if (socket.authorized) {
    const organizations = socket.getPeerCertificate(false).subject?.O as string | string[] | undefined;
    privileged = (Array.isArray(organizations) ? organizations : [organizations]).includes(systemPrivilegedGroup);
  }
  privilegedConnections.set(socket, privileged);
  return privileged;
}

/** Whether the request names anyone to impersonate (`Impersonate-User`, `-Group`, `-Uid`, `-Extra-*`). */
function impersonates(req: NodeRequest): boolean {
  for (const name in req.headers) if (name.startsWith('impersonate-')) return true;
  return false;
}

/** True when the request is served as it arrives rather than queued: a health check, or an administrator's own. */
export function goesAhead(req: NodeRequest, pathname: string): boolean {
  return healthPath.test(pathname) || (privilegedConnection(req) && !impersonates(req));
}
