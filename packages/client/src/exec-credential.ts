/**
 * Client credential plugins (document 2 §Client credential plugins), as client-go's exec authenticator runs them:
 * - the plugin gets an `ExecCredential` in `SVC_EXEC_INFO` (`KUBERNETES_EXEC_INFO` when the configured apiVersion is
 *   in the `client.authentication.k8s.io` group) with `spec.interactive` and, with `provideClusterInfo`,
 *   `spec.cluster`; standard input is the user's only when the session is interactive, standard error always is;
 * - its output must be an `ExecCredential` of the configured apiVersion whose `status` holds a token or a PEM client
 *   certificate and key, with an optional `expirationTimestamp`;
 * - the credential is cached (per plugin configuration, shared by every client of the process) until it expires,
 *   until a 401 answers a request made with it, or until the process ends; concurrent callers share one run.
 */
import { spawn } from 'node:child_process';
import { isAbsolute, resolve } from 'node:path';
import { failure, fail, flavours, namesFor, ok, type Flavour, type Result, type Status } from '@svc-apiserver/api';
import type { ResolvedExec } from './kubeconfig.js';

/** A credential a plugin produced. */
export interface ExecCredential {
  readonly token?: string;
  /** PEM client certificate (with intermediates, if any) and key. */
  readonly clientCertificateData?: string;
  readonly clientKeyData?: string;
  /** When the credential stops being used; absent means until a 401 or the process ends. */
  readonly expiresAt?: Date;
}

/** What the plugin runner needs from its surroundings; tests and CLIs can supply their own. */
export interface ExecEnvironment {
  /** Is standard input a terminal (client-go's `term.IsTerminal(stdin)`)? */
  readonly stdinIsTerminal: boolean;
  /** The environment the plugin inherits. */
  readonly env: NodeJS.ProcessEnv;
  /** The clock, for expiry. */
  readonly now: () => number;
}

/** The process's own surroundings. */
export function processExecEnvironment(): ExecEnvironment {
  return { stdinIsTerminal: process.stdin.isTTY === true, env: process.env, now: Date.now };
}

/** Runs a plugin once per cache lifetime and hands out its credential. */
export interface ExecAuthenticator {
  /** The cached credential, or a fresh one from the plugin. */
  credential(): Promise<Result<ExecCredential>>;
  /** A 401 answered a request made with `used`: drop it so the next call runs the plugin again. */
  invalidate(used: ExecCredential): void;
}

/** The flavour whose ExecCredential group the apiVersion is in, and the version. */
function execApi(apiVersion: string): { flavour: Flavour; version: 'v1' | 'v1beta1' } | undefined {
  const slash = apiVersion.lastIndexOf('/');
  const group = apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  if (version !== 'v1' && version !== 'v1beta1') return undefined;
  const flavour = flavours.find((f) => namesFor(f).group('client.authentication') === group);
  return flavour === undefined ? undefined : { flavour, version };
}

/** An exec failure as the Status a caller sees: no request was made, so code 0 like every transport failure. */
function execFailure(message: string): Status {
  return failure('Unauthorized', message, undefined, 0);
}

/** The command as it is started: relative paths with a separator resolve against the kubeconfig's folder. */
export function resolveExecCommand(command: string, baseDir: string): string {
  if (isAbsolute(command) || !command.includes('/')) return command;
  return resolve(baseDir, command);
}

interface RunOutcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly spawnError?: NodeJS.ErrnoException;
}

function runPlugin(command: string, args: readonly string[], env: NodeJS.ProcessEnv, interactive: boolean): Promise<RunOutcome> {
  return new Promise((done) => {
    const child = spawn(command, [...args], { env, stdio: [interactive ? 'inherit' : 'ignore', 'pipe', 'inherit'] });
    const chunks: Buffer[] = [];
    child.stdout?.on('data', (c: Buffer) => chunks.push(c));
    let spawnError: NodeJS.ErrnoException | undefined;
    child.on('error', (e: NodeJS.ErrnoException) => {
      spawnError = e;
    });
    child.on('close', (code) => done({ code, stdout: Buffer.concat(chunks).toString('utf8'), ...(spawnError ? { spawnError } : {}) }));
  });
}

/** Reads the plugin's output: an ExecCredential of the configured version with a usable status. */
export function parseExecOutput(stdout: string, apiVersion: string): Result<ExecCredential, string> {
  let doc: unknown;
  try {
    doc = JSON.parse(stdout);
  } catch (e) {
    return fail(`decoding stdout: ${(e as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null) return fail('decoding stdout: expected an ExecCredential object');
  const o = doc as Record<string, unknown>;
  if (o.kind !== 'ExecCredential') return fail(`decoding stdout: expected kind ExecCredential, got "${String(o.kind ?? '')}"`);
  if (o.apiVersion !== apiVersion) {
    return fail(`plugin is configured to use API version ${apiVersion}, plugin returned version ${String(o.apiVersion ?? '')}`);
  }
  const status = o.status;
  if (typeof status !== 'object' || status === null) return fail('plugin did not return a status field');
  const s = status as Record<string, unknown>;
  const token = typeof s.token === 'string' && s.token !== '' ? s.token : undefined;
  const cert = typeof s.clientCertificateData === 'string' && s.clientCertificateData !== '' ? s.clientCertificateData : undefined;
  const key = typeof s.clientKeyData === 'string' && s.clientKeyData !== '' ? s.clientKeyData : undefined;
  if ((cert === undefined) !== (key === undefined)) return fail('plugin returned only certificate or key, not both');
  if (token === undefined && cert === undefined) return fail('plugin did not return a token or cert/key pair');
  let expiresAt: Date | undefined;
  if (s.expirationTimestamp !== undefined && s.expirationTimestamp !== null) {
    const t = typeof s.expirationTimestamp === 'string' ? Date.parse(s.expirationTimestamp) : NaN;
    if (Number.isNaN(t)) return fail(`plugin returned an invalid expirationTimestamp: ${JSON.stringify(s.expirationTimestamp)}`);
    expiresAt = new Date(t);
  }
  const out: { -readonly [K in keyof ExecCredential]: ExecCredential[K] } = {};
  if (token !== undefined) out.token = token;
  if (cert !== undefined && key !== undefined) {
    out.clientCertificateData = cert;
    out.clientKeyData = key;
  }
  if (expiresAt !== undefined) out.expiresAt = expiresAt;
  return ok(out);
}

/** The ExecCredential input handed to the plugin. */
export function execInput(exec: ResolvedExec, interactive: boolean): Record<string, unknown> {
  const spec: Record<string, unknown> = { interactive };
  if (exec.config.provideClusterInfo) {
    const c = exec.cluster;
    const cluster: Record<string, unknown> = { server: c.server };
    if (c.tlsServerName !== undefined) cluster['tls-server-name'] = c.tlsServerName;
    if (c.insecureSkipTlsVerify) cluster['insecure-skip-tls-verify'] = true;
    if (c.certificateAuthorityData !== undefined) cluster['certificate-authority-data'] = c.certificateAuthorityData;
    if (c.proxyUrl !== undefined) cluster['proxy-url'] = c.proxyUrl;
    if (c.config !== undefined) cluster.config = c.config;
    spec.cluster = cluster;
  }
  return { kind: 'ExecCredential', apiVersion: exec.config.apiVersion, spec };
}

/** Makes the authenticator of one plugin configuration. */
export function createExecAuthenticator(exec: ResolvedExec, environment: ExecEnvironment = processExecEnvironment()): ExecAuthenticator {
  const { config } = exec;
  const command = resolveExecCommand(config.command, exec.baseDir);
  let cached: ExecCredential | undefined;
  let running: Promise<Result<ExecCredential>> | undefined;

  async function run(): Promise<Result<ExecCredential>> {
    const api = execApi(config.apiVersion);
    if (api === undefined) return fail(execFailure(`exec plugin: invalid apiVersion "${config.apiVersion}"`));
    let interactive: boolean;
    switch (config.interactiveMode) {
      case 'Never':
        interactive = false;
        break;
      case 'IfAvailable':
        interactive = environment.stdinIsTerminal;
        break;
      case 'Always':
        if (!environment.stdinIsTerminal) {
          return fail(execFailure('exec plugin cannot support interactive mode: standard input is not a terminal'));
        }
        interactive = true;
        break;
    }
    const env: NodeJS.ProcessEnv = { ...environment.env };
    for (const e of config.env) env[e.name] = e.value;
    env[namesFor(api.flavour).name('execInfoEnv')] = JSON.stringify(execInput(exec, interactive));
    const outcome = await runPlugin(command, config.args, env, interactive);
    if (outcome.spawnError !== undefined) {
      if (outcome.spawnError.code === 'ENOENT' || outcome.spawnError.code === 'EACCES') {
        const hint = config.installHint !== undefined ? `\n\n${config.installHint}` : '';
        return fail(execFailure(`exec: executable ${command} not found\n\nThe client credential plugin this kubeconfig names is not installed.${hint}`));
      }
      return fail(execFailure(`exec: ${outcome.spawnError.message}`));
    }
    if (outcome.code !== 0) return fail(execFailure(`exec: executable ${command} failed with exit code ${outcome.code ?? 'unknown (killed by a signal)'}`));
    const parsed = parseExecOutput(outcome.stdout, config.apiVersion);
    if (!parsed.ok) return fail(execFailure(`exec plugin ${command}: ${parsed.error}`));
    return parsed;
  }

  const fresh = (c: ExecCredential): boolean => c.expiresAt === undefined || c.expiresAt.getTime() > environment.now();

  return {
    credential() {
      if (cached !== undefined && fresh(cached)) return Promise.resolve(ok(cached));
      cached = undefined;
      running ??= run().then((r) => {
        running = undefined;
        if (r.ok) cached = r.value;
        return r;
      });
      return running;
    },
    invalidate(used) {
      if (cached === used) cached = undefined;
    },
  };
}

const shared = new Map<string, ExecAuthenticator>();

/**
 * The process-wide authenticator of a plugin configuration: every client using the same plugin, cluster and folder
 * shares one cached credential, as client-go's global exec cache does.
 */
export function sharedExecAuthenticator(exec: ResolvedExec): ExecAuthenticator {
  const key = JSON.stringify(exec);
  let a = shared.get(key);
  if (a === undefined) {
    a = createExecAuthenticator(exec);
    shared.set(key, a);
  }
  return a;
}
