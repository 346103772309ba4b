/**
 * svcctl's flags, spelled as kubectl's: global ones (`--kubeconfig`, `--context`, `-n`) and each command's, parsed
 * anywhere on the line. Boolean flags take kubectl's `--flag=false` form too.
 */
import { parseArgs } from 'node:util';
import { fail, ok, type Result } from '@svc-apiserver/api';

/** The parsed flags. */
export interface Flags {
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  output?: string;
  filename?: string[];
  recursive?: boolean;
  'all-namespaces'?: boolean;
  selector?: string;
  'field-selector'?: string;
  watch?: boolean;
  'watch-only'?: boolean;
  'show-labels'?: boolean;
  'no-headers'?: boolean;
  overwrite?: boolean;
  'field-manager'?: string;
  'server-side'?: boolean;
  'force-conflicts'?: boolean;
  force?: boolean;
  type?: string;
  patch?: string;
  cascade?: string;
  'grace-period'?: string;
  wait?: boolean;
  for?: string;
  timeout?: string;
  replicas?: string;
  'current-replicas'?: string;
  list?: boolean;
  'from-literal'?: string[];
  'from-file'?: string[];
  'dry-run'?: string;
  all?: boolean;
  duration?: string;
  audience?: string[];
  minify?: boolean;
  raw?: boolean;
  'api-group'?: string;
  namespaced?: boolean;
  cluster?: string;
  user?: string;
  current?: boolean;
  client?: boolean;
  'ignore-not-found'?: boolean;
  'api-version'?: string;
  'output-patch'?: boolean;
  'save-config'?: boolean;
  'show-managed-fields'?: boolean;
  help?: boolean;
}

const options = {
  kubeconfig: { type: 'string' },
  context: { type: 'string' },
  namespace: { type: 'string', short: 'n' },
  output: { type: 'string', short: 'o' },
  filename: { type: 'string', short: 'f', multiple: true },
  recursive: { type: 'boolean', short: 'R' },
  'all-namespaces': { type: 'boolean', short: 'A' },
  selector: { type: 'string', short: 'l' },
  'field-selector': { type: 'string' },
  watch: { type: 'boolean', short: 'w' },
  'watch-only': { type: 'boolean' },
  'show-labels': { type: 'boolean' },
  'no-headers': { type: 'boolean' },
  overwrite: { type: 'boolean' },
  'field-manager': { type: 'string' },
  'server-side': { type: 'boolean' },
  'force-conflicts': { type: 'boolean' },
  force: { type: 'boolean' },
  type: { type: 'string' },
  patch: { type: 'string', short: 'p' },
  cascade: { type: 'string' },
  'grace-period': { type: 'string' },
  wait: { type: 'boolean' },
  for: { type: 'string' },
  timeout: { type: 'string' },
  replicas: { type: 'string' },
  'current-replicas': { type: 'string' },
  list: { type: 'boolean' },
  'from-literal': { type: 'string', multiple: true },
  'from-file': { type: 'string', multiple: true },
  'dry-run': { type: 'string' },
  all: { type: 'boolean' },
  duration: { type: 'string' },
  audience: { type: 'string', multiple: true },
  minify: { type: 'boolean' },
  raw: { type: 'boolean' },
  'api-group': { type: 'string' },
  namespaced: { type: 'boolean' },
  cluster: { type: 'string' },
  user: { type: 'string' },
  current: { type: 'boolean' },
  client: { type: 'boolean' },
  'ignore-not-found': { type: 'boolean' },
  'api-version': { type: 'string' },
  'output-patch': { type: 'boolean' },
  'save-config': { type: 'boolean' },
  'show-managed-fields': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Every long flag name (for shell completion). */
export const flagNames: readonly string[] = Object.keys(options);

const booleans = new Set(Object.entries(options).filter(([, o]) => o.type === 'boolean').map(([k]) => k));

/** Flags and positional arguments of one command line. */
export interface ParsedLine {
  readonly flags: Flags;
  readonly positionals: string[];
}

/** Parses argv; the message of the first bad flag otherwise. */
export function parseLine(argv: readonly string[]): Result<ParsedLine, string> {
  const explicitFalse: string[] = [];
  const args: string[] = [];
  for (const a of argv) {
    const m = /^--([a-z-]+)=(true|false)$/.exec(a);
    if (m?.[1] !== undefined && booleans.has(m[1])) {
      if (m[2] === 'true') args.push(`--${m[1]}`);
      else explicitFalse.push(m[1]);
    } else {
      args.push(a);
    }
  }
  // `--cascade` alone means background, as kubectl's boolean-turned-string flag does
  const cascadeAlone = args.findIndex((a, i) => a === '--cascade' && (args[i + 1] === undefined || args[i + 1]!.startsWith('-')));
  if (cascadeAlone >= 0) args[cascadeAlone] = '--cascade=background';
  try {
    const parsed = parseArgs({ args, allowPositionals: true, options });
    const flags = { ...parsed.values } as Record<string, unknown>;
    for (const f of explicitFalse) flags[f] = false;
    return ok({ flags: flags as Flags, positionals: parsed.positionals });
  } catch (e) {
    return fail((e as Error).message);
  }
}

/** Parses kubectl's durations: `30s`, `5m`, `1h`, `1m30s`, a bare number of seconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (const m of text.matchAll(re)) {
    const n = Number(m[1]);
    total += m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : m[2] === 'm' ? n * 60_000 : n * 3_600_000;
    matched += m[0].length;
  }
  return matched === text.length && matched > 0 ? total : undefined;
}
