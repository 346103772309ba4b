/**
 * Kubeconfig-format connection files as the server reads them for its outbound calls (webhook configuration files
 * of authentication, authorization, admission and audit; ImagePolicyWebhook's `kubeConfigFile`): named clusters,
 * users and contexts, with file references resolved against the file's folder and `*-data` fields base64-decoded.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parse } from 'yaml';
import { fail, ok, type Result } from '@svc-apiserver/api';
import type { HttpsTarget } from './https-request.js';

/** A `clusters[].cluster`: where a server is and how it is trusted. */
export interface KubeconfigCluster {
  readonly server: string;
  readonly ca?: string;
  readonly insecureSkipVerify: boolean;
  readonly tlsServerName?: string;
}

/** A `users[].user`: the credentials the server presents. */
export interface KubeconfigUser {
  readonly cert?: string;
  readonly key?: string;
  readonly token?: string;
  readonly username?: string;
  readonly password?: string;
}

/** A `contexts[].context`. */
export interface KubeconfigContext {
  readonly cluster: string;
  readonly user: string;
}

/** A parsed connection file. */
export interface KubeconfigFile {
  readonly path: string;
  readonly clusters: ReadonlyMap<string, KubeconfigCluster>;
  readonly users: ReadonlyMap<string, KubeconfigUser>;
  readonly contexts: ReadonlyMap<string, KubeconfigContext>;
  readonly currentContext: string;
}

type Fields = Record<string, unknown>;

function fieldsOf(value: unknown): Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};
}

/** Entries of a named list (`clusters`, `users`, `contexts`): name → the entry's `key` object. */
function namedEntries(list: unknown, key: string): Map<string, Fields> {
  const entries = new Map<string, Fields>();
  if (!Array.isArray(list)) return entries;
  for (const item of list) {
    const entry = fieldsOf(item);
    if (typeof entry.name === 'string') entries.set(entry.name, fieldsOf(entry[key]));
  }
  return entries;
}

/** Parses kubeconfig text; `path` names the file in messages and anchors relative file references. */
export function parseKubeconfig(text: string, path: string): Result<KubeconfigFile, string> {
  let doc: Fields;
  try {
    doc = fieldsOf(parse(text, { maxAliasCount: 100 }));
  } catch (e) {
    return fail(`${path}: ${(e as Error).message}`);
  }
  const base = dirname(path);
  let failure: string | undefined;
  /** A `<field>-data` (base64) or `<field>` (file) pair, or a plain field when `file` is undefined. */
  const read = (from: Fields, dataKey: string, fileKey: string | undefined): string | undefined => {
    const data = from[dataKey];
    if (typeof data === 'string' && data !== '') {
      return fileKey === undefined || dataKey === 'token' ? data : Buffer.from(data, 'base64').toString('utf8');
    }
    const file = fileKey === undefined ? undefined : from[fileKey];
    if (typeof file !== 'string' || file === '') return undefined;
    try {
      return readFileSync(isAbsolute(file) ? file : join(base, file), 'utf8');
    } catch (e) {
      failure ??= `${path}: ${(e as Error).message}`;
      return undefined;
    }
  };
  /** Drops unset and empty fields, so optional fields are absent rather than undefined. */
  const defined = <T extends object>(o: { [K in keyof T]-?: T[K] | undefined }): T =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as T;

  const clusters = new Map<string, KubeconfigCluster>();
  for (const [name, c] of namedEntries(doc.clusters, 'cluster')) {
    clusters.set(name, defined<KubeconfigCluster>({
      server: typeof c.server === 'string' ? c.server : '',
      ca: read(c, 'certificate-authority-data', 'certificate-authority'),
      insecureSkipVerify: c['insecure-skip-tls-verify'] === true,
      tlsServerName: typeof c['tls-server-name'] === 'string' ? c['tls-server-name'] : undefined,
    }));
  }
  const users = new Map<string, KubeconfigUser>();
  for (const [name, u] of namedEntries(doc.users, 'user')) {
    users.set(name, defined<KubeconfigUser>({
      cert: read(u, 'client-certificate-data', 'client-certificate'),
      key: read(u, 'client-key-data', 'client-key'),
      token: (read(u, 'token', 'tokenFile') ?? '').trim() || undefined,
      username: typeof u.username === 'string' ? u.username : undefined,
      password: typeof u.password === 'string' ? u.password : undefined,
    }));
  }
  const contexts = new Map<string, KubeconfigContext>();
  for (const [name, c] of namedEntries(doc.contexts, 'context')) {
    contexts.set(name, { cluster: typeof c.cluster === 'string' ? c.cluster : '', user: typeof c.user === 'string' ? c.user : '' });
  }
  if (failure !== undefined) return fail(failure);
  const currentContext = typeof doc['current-context'] === 'string' ? doc['current-context'] : '';
  return ok({ path, clusters, users, contexts, currentContext });
}

/** Reads and parses a connection file. */
export function loadKubeconfig(path: string): Result<KubeconfigFile, string> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return fail(`${path}: ${(e as Error).message}`);
  }
  return parseKubeconfig(text, path);
}

/** The credential part of a target for a kubeconfig user. */
export function userCredentials(user: KubeconfigUser): HttpsTarget {
  return {
    ...(user.cert !== undefined ? { cert: user.cert } : {}),
    ...(user.key !== undefined ? { key: user.key } : {}),
    ...(user.token !== undefined
      ? { token: user.token }
      : user.username !== undefined ? { basicAuth: { username: user.username, password: user.password ?? '' } } : {}),
  };
}

/** The trust part of a target for a kubeconfig cluster. */
export function clusterTrust(cluster: KubeconfigCluster): HttpsTarget {
  return {
    ...(cluster.ca !== undefined ? { ca: cluster.ca } : {}),
    ...(cluster.insecureSkipVerify ? { insecureSkipVerify: true } : {}),
    ...(cluster.tlsServerName !== undefined ? { serverName: cluster.tlsServerName } : {}),
  };
}
