/**
 * Credentials the server presents to admission webhooks (document 3 §Webhook configuration resources; kube's
 * `WebhookAdmissionConfiguration.kubeConfigFile` and webhook.AuthenticationInfoResolver): the connection file's
 * `users` are named by the host they are for — the Service's DNS name `<name>.<namespace>.svc` or the URL's host,
 * with `:<port>` unless the port is 443 — or by a `*.` wildcard suffix of it, or `*` for every host; else the
 * current context's user.
 */
import type { HttpsTarget } from './https-request.js';
import { userCredentials, type KubeconfigFile } from './kubeconfig-file.js';

/** Looks up the credentials for a host. */
export interface AuthInfoResolver {
  /** Credentials for `host:port` (a URL's host; the port defaults to 443). */
  forHost(host: string, port: number): HttpsTarget;
  /** Credentials for a Service reference. */
  forService(name: string, namespace: string, port: number): HttpsTarget;
}

/** A resolver that presents no credentials (no connection file configured). */
export const anonymousAuthInfo: AuthInfoResolver = { forHost: () => ({}), forService: () => ({}) };

/** A resolver over a parsed connection file. */
export function authInfoResolver(file: KubeconfigFile): AuthInfoResolver {
  const lookup = (name: string): HttpsTarget | undefined => {
    const user = file.users.get(name);
    return user === undefined ? undefined : userCredentials(user);
  };
  // With no entry for the host, the current context's user, as kube falls back to it.
  const current = file.contexts.get(file.currentContext);
  const currentUser = current === undefined ? undefined : lookup(current.user);
  /** The exact name, then `*.` suffixes from the longest down. */
  const byName = (name: string): HttpsTarget | undefined => {
    const exact = lookup(name);
    if (exact !== undefined) return exact;
    const labels = name.split('.');
    for (let i = 1; i < labels.length; i++) {
      const wildcard = lookup(`*.${labels.slice(i).join('.')}`);
      if (wildcard !== undefined) return wildcard;
    }
    return undefined;
  };
  const resolve = (host: string, port: number): HttpsTarget => {
    const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    const hostPort = bare.includes(':') ? `[${bare}]:${port}` : `${bare}:${port}`;
    // `host:port` first; for the default port, the bare host too (kube tries both).
    return byName(hostPort) ?? (port === 443 ? byName(bare) : undefined) ?? lookup('*') ?? currentUser ?? {};
  };
  return {
    forHost: resolve,
    forService: (name, namespace, port) => resolve(`${name}.${namespace}.svc`, port),
  };
}
