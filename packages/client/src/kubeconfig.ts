/**
 * Kubeconfig files: parsing the clusters/users/contexts document and resolving one context into what a connection
 * needs. Mirrors client-go's clientcmd (loading rules: `--kubeconfig`, then `$KUBECONFIG`, then `~/.kube/config`;
 * relative file references resolve against the kubeconfig's directory; `*-data` fields win over file paths).
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { fail, ok, type Result } from '@svc-apiserver/api';

/** A cluster entry. */
export interface KubeconfigCluster {
  readonly name: string;
  readonly server: string;
  readonly certificateAuthority?: string;
  readonly certificateAuthorityData?: string;
  readonly insecureSkipTlsVerify: boolean;
  readonly tlsServerName?: string;
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
}

/** A context entry. */
export interface KubeconfigContext {
  readonly name: string;
  readonly cluster: string;
  readonly user: string;
  readonly namespace?: string;
}

/** A parsed kubeconfig. `baseDir` is where relative file references resolve. */
export interface Kubeconfig {
  readonly clusters: readonly KubeconfigCluster[];
  readonly users: readonly KubeconfigUser[];
  readonly contexts: readonly KubeconfigContext[];
  readonly currentContext: string;
  readonly baseDir: string;
}

/** Everything a connection to one API server needs, with files already read. */
export interface ConnectionConfig {
  /** `https://host:port` (or `http://` for plain test servers), without a trailing slash. */
  readonly server: string;
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  readonly token?: string;
  readonly username?: string;
  readonly password?: string;
  readonly insecureSkipTlsVerify?: boolean;
  readonly tlsServerName?: string;
  /** The context's namespace, `default` when it names none. */
  readonly namespace: string;
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
function defined<T extends object>(o: { [K in keyof T]: T[K] | undefined }): T {
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
      })),
      users: users.value.map(({ name, body }) => defined<KubeconfigUser>({
        name,
        clientCertificate: str(body, 'client-certificate'),
        clientCertificateData: str(body, 'client-certificate-data'),
        clientKey: str(body, 'client-key'),
        clientKeyData: str(body, 'client-key-data'),
        token: str(body, 'token'),
        tokenFile: str(body, 'tokenFile'),
        username: str(body, 'username'),
        password: str(body, 'password'),
      })),
      contexts: contexts.value.map(({ name, body }) => defined<KubeconfigContext>({
        name,
        cluster: str(body, 'cluster') ?? '',
        user: str(body, 'user') ?? '',
        namespace: str(body, 'namespace'),
      })),
    });
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

/** Resolves a context (the current one when `contextName` is absent) into a connection config, reading files. */
export function resolveContext(kc: Kubeconfig, contextName?: string): Result<ConnectionConfig, string> {
  const name = contextName ?? kc.currentContext;
  if (!name) return fail('no context is set: the kubeconfig has no current-context');
  const ctx = kc.contexts.find((c) => c.name === name);
  if (!ctx) return fail(`context "${name}" does not exist`);
  const cluster = kc.clusters.find((c) => c.name === ctx.cluster);
  if (!cluster) return fail(`cluster "${ctx.cluster}" of context "${name}" does not exist`);
  if (!cluster.server) return fail(`cluster "${cluster.name}" has no server`);
  const user = kc.users.find((u) => u.name === ctx.user);
  if (ctx.user && !user) return fail(`user "${ctx.user}" of context "${name}" does not exist`);
  const ca = readRef(kc.baseDir, cluster.certificateAuthorityData, cluster.certificateAuthority, 'certificate-authority');
  if (!ca.ok) return ca;
  const cert = readRef(kc.baseDir, user?.clientCertificateData, user?.clientCertificate, 'client-certificate');
  if (!cert.ok) return cert;
  const key = readRef(kc.baseDir, user?.clientKeyData, user?.clientKey, 'client-key');
  if (!key.ok) return key;
  let token = user?.token;
  if (token === undefined && user?.tokenFile !== undefined) {
    const t = readRef(kc.baseDir, undefined, user.tokenFile, 'tokenFile');
    if (!t.ok) return t;
    token = t.value?.toString('utf8').trim();
  }
  return ok(defined<ConnectionConfig>({
      server: cluster.server.replace(/\/+$/, ''),
      ca: ca.value,
      cert: cert.value,
      key: key.value,
      token,
      username: user?.username,
      password: user?.password,
      insecureSkipTlsVerify: cluster.insecureSkipTlsVerify || undefined,
      tlsServerName: cluster.tlsServerName,
      namespace: ctx.namespace ?? 'default',
    }));
}

/** Where the kubeconfig is looked for: the explicit path, else the first `$KUBECONFIG` entry, else `~/.kube/config`. */
export function kubeconfigPath(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  if (explicit) return explicit;
  const fromEnv = env.KUBECONFIG?.split(delimiter).find((p) => p !== '');
  if (fromEnv) return fromEnv;
  return join(env.HOME ?? homedir(), '.kube', 'config');
}

/** Reads and resolves a kubeconfig file in one step. */
export function loadKubeconfig(options: { path?: string; context?: string; env?: NodeJS.ProcessEnv } = {}): Result<ConnectionConfig, string> {
  const path = kubeconfigPath(options.path, options.env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return fail(`unable to read kubeconfig ${path}: ${(e as Error).message}`);
  }
  const kc = parseKubeconfig(text, dirname(resolve(path)));
  if (!kc.ok) return kc;
  return resolveContext(kc.value, options.context);
}
