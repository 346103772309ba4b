/**
 * Kubeconfig files: parsing the clusters/users/contexts document, merging several files and resolving one context
 * into what a connection needs. Mirrors client-go's clientcmd:
 * - loading rules: `--kubeconfig` (that file alone, which must exist), else every file of `$KUBECONFIG` (missing
 *   ones skipped), else `~/.kube/config` (absent means an empty config);
 * - merging: the first file that defines a cluster, user or context name wins it, and the first non-empty
 *   `current-context` wins;
 * - relative file references (and relative exec commands) resolve against the directory of the file that holds the
 *   entry; `*-data` fields win over file paths.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { fail, ok, type Result } from '@svc-apiserver/api';
import { parseExecConfig, type ExecConfig } from './exec-config.js';

/** A cluster entry. */
export interface KubeconfigCluster {
  readonly name: string;
  readonly server: string;
  readonly certificateAuthority?: string;
  readonly certificateAuthorityData?: string;
  readonly insecureSkipTlsVerify: boolean;
  readonly tlsServerName?: string;
  /** `proxy-url`: an `http`, `https` or `socks5` proxy for every connection to this cluster. */
  readonly proxyUrl?: string;
  /** The cluster's `extensions` by name; the exec extension is handed to plugins with `provideClusterInfo`. */
  readonly extensions?: Readonly<Record<string, unknown>>;
  /** The directory of the file that defined this entry (client-go's LocationOfOrigin). */
  readonly baseDir?: string;
}

/** A user (AuthInfo) entry. */
export interface KubeconfigUser {
  readonly name: string;
  readonly clientCertificate?: string;
  readonly clientCertificateData?: string;
  readonly clientKey?: string;
  readonly clientKeyData?: string;
  readonly token?: string;
  readonly tokenFile?: string;
  readonly username?: string;
  readonly password?: string;
  /** A client credential plugin (document 2 §Client credential plugins). */
  readonly exec?: ExecConfig;
  /** The directory of the file that defined this entry. */
  readonly baseDir?: string;
}

/** A context entry. */
export interface KubeconfigContext {
  readonly name: string;
  readonly cluster: string;
  readonly user: string;
  readonly namespace?: string;
}

/** A parsed (possibly merged) kubeconfig. `baseDir` is where relative references of entries without their own resolve. */
export interface Kubeconfig {
  readonly clusters: readonly KubeconfigCluster[];
  readonly users: readonly KubeconfigUser[];
  readonly contexts: readonly KubeconfigContext[];
  readonly currentContext: string;
  readonly baseDir: string;
  /** The files merged into this config, in precedence order (empty for parsed text). */
  readonly files?: readonly string[];
}

/** The cluster facts an exec plugin may receive (`spec.cluster` of its ExecCredential input). */
export interface ExecClusterInfo {
  readonly server: string;
  readonly tlsServerName?: string;
  readonly insecureSkipTlsVerify?: boolean;
  readonly certificateAuthorityData?: string;
  readonly proxyUrl?: string;
  /** The cluster's `client.authentication.<group>/exec` extension, free-form. */
  readonly config?: unknown;
}

/** An exec plugin as a connection runs it: its config, where relative commands resolve and the cluster facts. */
export interface ResolvedExec {
  readonly config: ExecConfig;
  readonly baseDir: string;
  readonly cluster: ExecClusterInfo;
}

/** Everything a connection to one API server needs, with files already read. */
export interface ConnectionConfig {
  /** `https://host:port` (or `http://` for plain test servers), without a trailing slash. */
  readonly server: string;
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  readonly token?: string;
  /** Re-read on each new credential use when set, as client-go re-reads `tokenFile` (rotated service account tokens). */
  readonly tokenFile?: string;
  readonly username?: string;
  readonly password?: string;
  readonly insecureSkipTlsVerify?: boolean;
  readonly tlsServerName?: string;
  readonly proxyUrl?: string;
  /** A client credential plugin that supplies the token or client certificate. */
  readonly exec?: ResolvedExec;
  /** The context's namespace, `default` when it names none. */
  readonly namespace: string;
  /** The context this config came from, when it came from a kubeconfig. */
  readonly context?: string;
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(o: Obj, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Copies the defined entries of `o`, so optional properties stay absent rather than `undefined`. */
export function defined<T extends object>(o: { [K in keyof T]: T[K] | undefined }): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as T;
}

function namedEntries(doc: Obj, listKey: string, innerKey: string): Result<Array<{ name: string; body: Obj }>, string> {
  const list = doc[listKey];
  if (list === undefined || list === null) return ok([]);
  if (!Array.isArray(list)) return fail(`${listKey}: expected a list`);
  const out: Array<{ name: string; body: Obj }> = [];
  for (const [i, entry] of list.entries()) {
    if (!isObj(entry) || typeof entry.name !== 'string') return fail(`${listKey}[${i}]: expected an entry with a name`);
    const body = entry[innerKey];
    out.push({ name: entry.name, body: isObj(body) ? body : {} });
  }
  return ok(out);
}

/** `extensions: [{name, extension}]` as a record. */
function extensionsOf(body: Obj): Record<string, unknown> | undefined {
  const list = body.extensions;
  if (!Array.isArray(list)) return undefined;
  const out: Record<string, unknown> = {};
  for (const e of list) if (isObj(e) && typeof e.name === 'string') out[e.name] = e.extension;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Parses kubeconfig text (YAML or JSON). `baseDir` resolves relative file references. */
export function parseKubeconfig(text: string, baseDir: string): Result<Kubeconfig, string> {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (e) {
    return fail(`invalid kubeconfig: ${(e as Error).message}`);
  }
  if (doc === null || doc === undefined) doc = {};
  if (!isObj(doc)) return fail('invalid kubeconfig: expected a mapping');
  const clusters = namedEntries(doc, 'clusters', 'cluster');
  if (!clusters.ok) return clusters;
  const users = namedEntries(doc, 'users', 'user');
  if (!users.ok) return users;
  const contexts = namedEntries(doc, 'contexts', 'context');
  if (!contexts.ok) return contexts;
  const parsedUsers: KubeconfigUser[] = [];
  for (const { name, body } of users.value) {
    let exec: ExecConfig | undefined;
    if (body.exec !== undefined && body.exec !== null) {
      const parsed = parseExecConfig(body.exec);
      if (!parsed.ok) return fail(`user "${name}": ${parsed.error}`);
      exec = parsed.value;
    }
    parsedUsers.push(defined<KubeconfigUser>({
      name,
      clientCertificate: str(body, 'client-certificate'),
      clientCertificateData: str(body, 'client-certificate-data'),
      clientKey: str(body, 'client-key'),
      clientKeyData: str(body, 'client-key-data'),
      token: str(body, 'token'),
      tokenFile: str(body, 'tokenFile'),
      username: str(body, 'username'),
      password: str(body, 'password'),
      exec,
      baseDir,
    }));
  }
  return ok({
    baseDir,
    currentContext: typeof doc['current-context'] === 'string' ? doc['current-context'] : '',
    clusters: clusters.value.map(({ name, body }) => defined<KubeconfigCluster>({
      name,
      server: str(body, 'server') ?? '',
      certificateAuthority: str(body, 'certificate-authority'),
      certificateAuthorityData: str(body, 'certificate-authority-data'),
      insecureSkipTlsVerify: body['insecure-skip-tls-verify'] === true,
      tlsServerName: str(body, 'tls-server-name'),
      proxyUrl: str(body, 'proxy-url'),
      extensions: extensionsOf(body),
      baseDir,
    })),
    users: parsedUsers,
    contexts: contexts.value.map(({ name, body }) => defined<KubeconfigContext>({
      name,
      cluster: str(body, 'cluster') ?? '',
      user: str(body, 'user') ?? '',
      namespace: str(body, 'namespace'),
    })),
  });
}

/**
 * Merges kubeconfigs in precedence order, as client-go's loading rules do: the first to define a name keeps it and
 * the first non-empty current-context wins.
 */
export function mergeKubeconfigs(configs: readonly Kubeconfig[]): Kubeconfig {
  const firstByName = <T extends { readonly name: string }>(lists: ReadonlyArray<readonly T[]>): T[] => {
    const seen = new Map<string, T>();
    for (const list of lists) for (const e of list) if (!seen.has(e.name)) seen.set(e.name, e);
    return [...seen.values()];
  };
  return {
    clusters: firstByName(configs.map((c) => c.clusters)),
    users: firstByName(configs.map((c) => c.users)),
    contexts: firstByName(configs.map((c) => c.contexts)),
    currentContext: configs.find((c) => c.currentContext !== '')?.currentContext ?? '',
    baseDir: configs[0]?.baseDir ?? process.cwd(),
    files: configs.flatMap((c) => c.files ?? []),
  };
}

function readRef(baseDir: string, data: string | undefined, file: string | undefined, what: string): Result<Buffer | undefined, string> {
  if (data !== undefined) return ok(Buffer.from(data, 'base64'));
  if (file === undefined) return ok(undefined);
  const path = isAbsolute(file) ? file : resolve(baseDir, file);
  try {
    return ok(readFileSync(path));
  } catch (e) {
    return fail(`unable to read ${what} from ${path}: ${(e as Error).message}`);
  }
}

/** Overrides of a context's choices, as kubectl's `--context`, `--cluster`, `--user` and `--namespace` flags. */
export interface ContextOverrides {
  readonly context?: string;
  readonly cluster?: string;
  readonly user?: string;
  readonly namespace?: string;
}

/** Resolves a context (the current one when none is named) into a connection config, reading files. */
export function resolveContext(kc: Kubeconfig, contextOrOverrides?: string | ContextOverrides): Result<ConnectionConfig, string> {
  const overrides: ContextOverrides = typeof contextOrOverrides === 'string' ? { context: contextOrOverrides } : contextOrOverrides ?? {};
  const name = overrides.context ?? kc.currentContext;
  if (!name) return fail('no context is set: the kubeconfig has no current-context');
  const ctx = kc.contexts.find((c) => c.name === name);
  if (!ctx) return fail(`context "${name}" does not exist`);
  const clusterName = overrides.cluster ?? ctx.cluster;
  const cluster = kc.clusters.find((c) => c.name === clusterName);
  if (!cluster) return fail(`cluster "${clusterName}" of context "${name}" does not exist`);
  if (!cluster.server) return fail(`cluster "${cluster.name}" has no server`);
  const userName = overrides.user ?? ctx.user;
  const user = kc.users.find((u) => u.name === userName);
  if (userName && !user) return fail(`user "${userName}" of context "${name}" does not exist`);
  const clusterDir = cluster.baseDir ?? kc.baseDir;
  const userDir = user?.baseDir ?? kc.baseDir;
  const ca = readRef(clusterDir, cluster.certificateAuthorityData, cluster.certificateAuthority, 'certificate-authority');
  if (!ca.ok) return ca;
  const cert = readRef(userDir, user?.clientCertificateData, user?.clientCertificate, 'client-certificate');
  if (!cert.ok) return cert;
  const key = readRef(userDir, user?.clientKeyData, user?.clientKey, 'client-key');
  if (!key.ok) return key;
  let token = user?.token;
  let tokenFile: string | undefined;
  if (token === undefined && user?.tokenFile !== undefined) {
    tokenFile = isAbsolute(user.tokenFile) ? user.tokenFile : resolve(userDir, user.tokenFile);
    const t = readRef(userDir, undefined, tokenFile, 'tokenFile');
    if (!t.ok) return t;
    token = t.value?.toString('utf8').trim();
  }
  const server = cluster.server.replace(/\/+$/, '');
  const exec: ResolvedExec | undefined = user?.exec === undefined ? undefined : {
    config: user.exec,
    baseDir: userDir,
    cluster: defined<ExecClusterInfo>({
      server,
      tlsServerName: cluster.tlsServerName,
      insecureSkipTlsVerify: cluster.insecureSkipTlsVerify || undefined,
      certificateAuthorityData: ca.value?.toString('base64'),
      proxyUrl: cluster.proxyUrl,
      config: Object.entries(cluster.extensions ?? {}).find(([k]) => /^client\.authentication\.[a-z.]+\/exec$/.test(k))?.[1],
    }),
  };
  return ok(defined<ConnectionConfig>({
    server,
    ca: ca.value,
    cert: cert.value,
    key: key.value,
    token,
    tokenFile,
    username: user?.username,
    password: user?.password,
    insecureSkipTlsVerify: cluster.insecureSkipTlsVerify || undefined,
    tlsServerName: cluster.tlsServerName,
    proxyUrl: cluster.proxyUrl,
    exec,
    namespace: overrides.namespace ?? ctx.namespace ?? 'default',
    context: name,
  }));
}

/**
 * The files the loading rules read, in precedence order, and whether they must exist: the explicit path alone
 * (must exist), else the `$KUBECONFIG` entries (deduplicated, empty entries dropped), else `~/.kube/config`.
 */
export function kubeconfigPaths(explicit?: string, env: NodeJS.ProcessEnv = process.env): { paths: string[]; mustExist: boolean } {
  if (explicit) return { paths: [explicit], mustExist: true };
  const fromEnv = [...new Set((env.KUBECONFIG ?? '').split(delimiter).filter((p) => p !== ''))];
  if (fromEnv.length > 0) return { paths: fromEnv, mustExist: false };
  return { paths: [join(env.HOME ?? homedir(), '.kube', 'config')], mustExist: false };
}

/** Where a kubeconfig is looked for first (the file `config set-context` would write, as client-go picks it). */
export function kubeconfigPath(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  const { paths, mustExist } = kubeconfigPaths(explicit, env);
  if (mustExist) return paths[0] ?? '';
  return paths.find((p) => existsSync(p)) ?? paths[paths.length - 1] ?? '';
}

/** Reads and merges the kubeconfig files the loading rules name. */
export function readKubeconfig(options: { path?: string; env?: NodeJS.ProcessEnv } = {}): Result<Kubeconfig, string> {
  const { paths, mustExist } = kubeconfigPaths(options.path, options.env);
  const configs: Kubeconfig[] = [];
  for (const path of paths) {
    const full = resolve(path);
    if (!mustExist && !existsSync(full)) continue;
    let text: string;
    try {
      text = readFileSync(full, 'utf8');
    } catch (e) {
      return fail(`unable to read kubeconfig ${path}: ${(e as Error).message}`);
    }
    const kc = parseKubeconfig(text, dirname(full));
    if (!kc.ok) return fail(`${path}: ${kc.error}`);
    configs.push({ ...kc.value, files: [full] });
  }
  if (configs.length === 0) return ok({ clusters: [], users: [], contexts: [], currentContext: '', baseDir: process.cwd(), files: [] });
  return ok(mergeKubeconfigs(configs));
}

/** Reads, merges and resolves kubeconfig files in one step. */
export function loadKubeconfig(options: { path?: string; context?: string; cluster?: string; user?: string; namespace?: string; env?: NodeJS.ProcessEnv } = {}): Result<ConnectionConfig, string> {
  const kc = readKubeconfig(options);
  if (!kc.ok) return kc;
  return resolveContext(kc.value, defined<ContextOverrides>({
    context: options.context,
    cluster: options.cluster,
    user: options.user,
    namespace: options.namespace,
  }));
}
