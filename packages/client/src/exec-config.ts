/**
 * The `user.exec` block of a kubeconfig (document 2 §Client credential plugins), parsed and checked as client-go's
 * clientcmd validates it: `command` and `apiVersion` are required, every `env` entry needs a name, and
 * `interactiveMode` must be `Never`, `IfAvailable` or `Always` — required with the `v1` API, defaulting to
 * `IfAvailable` with `v1beta1`.
 */
import { fail, ok, type Result } from '@svc-apiserver/api';

/** When a plugin may talk to the user through standard input. */
export type ExecInteractiveMode = 'Never' | 'IfAvailable' | 'Always';

/** A client credential plugin as the kubeconfig names it. */
export interface ExecConfig {
  /** The program; a relative path with a slash resolves against the kubeconfig's directory. */
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the plugin's environment, after the client's own. */
  readonly env: ReadonlyArray<{ readonly name: string; readonly value: string }>;
  /** `client.authentication.<group>/v1` or `/v1beta1`: the ExecCredential version exchanged. */
  readonly apiVersion: string;
  /** Shown to the user when the command cannot be found. */
  readonly installHint?: string;
  /** Pass the cluster's server, CA and exec extension to the plugin in `spec.cluster`. */
  readonly provideClusterInfo: boolean;
  readonly interactiveMode: ExecInteractiveMode;
}

const modes: readonly string[] = ['Never', 'IfAvailable', 'Always'];

/** Parses and checks a `user.exec` value; the error names the broken field. */
export function parseExecConfig(raw: unknown): Result<ExecConfig, string> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('exec: expected a mapping');
  const o = raw as Record<string, unknown>;
  const command = typeof o.command === 'string' ? o.command : '';
  if (command === '') return fail('exec: command must be specified to use an exec authentication plugin');
  const apiVersion = typeof o.apiVersion === 'string' ? o.apiVersion : '';
  if (apiVersion === '') return fail('exec: apiVersion must be specified to use an exec authentication plugin');
  const args = o.args ?? [];
  if (!Array.isArray(args) || args.some((a) => typeof a !== 'string')) return fail('exec: args must be a list of strings');
  const envList = o.env ?? [];
  if (!Array.isArray(envList)) return fail('exec: env must be a list of name/value entries');
  const env: Array<{ name: string; value: string }> = [];
  for (const e of envList) {
    const entry = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
    if (typeof entry.name !== 'string' || entry.name === '') return fail('exec: env variable name must be specified to use an exec authentication plugin');
    env.push({ name: entry.name, value: typeof entry.value === 'string' ? entry.value : String(entry.value ?? '') });
  }
  let interactiveMode = typeof o.interactiveMode === 'string' ? o.interactiveMode : '';
  if (interactiveMode === '' && apiVersion.endsWith('/v1beta1')) interactiveMode = 'IfAvailable';
  if (interactiveMode === '') return fail('exec: interactiveMode must be specified to use an exec authentication plugin');
  if (!modes.includes(interactiveMode)) return fail(`exec: invalid interactiveMode: "${interactiveMode}"`);
  const out: ExecConfig = {
    command,
    args: args as string[],
    env,
    apiVersion,
    provideClusterInfo: o.provideClusterInfo === true,
    interactiveMode: interactiveMode as ExecInteractiveMode,
  };
  return ok(typeof o.installHint === 'string' && o.installHint !== '' ? { ...out, installHint: o.installHint } : out);
}
