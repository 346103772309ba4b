/**
 * Command-line flags of svc-apiserver, with kube-apiserver's names and forms (`--flag=value`, `--flag value`,
 * repeatable list flags that also take comma lists, Go durations like `5s` or `1m30s`).
 */
import { parseFlavour, type Flavour } from '@svc-apiserver/api';

/** Where state is kept. */
export type StorageKind = 'sqlite' | 'memory';

/** Everything the flags set; `startServer` takes the same options. */
export interface ServerOptions {
  /** Directory for the database, certificates and the admin kubeconfig. */
  readonly dataDir: string;
  readonly bindAddress: string;
  /** 0 picks an ephemeral port. */
  readonly securePort: number;
  /** Extra SANs of the serving certificate. */
  readonly tlsSans: readonly string[];
  readonly flavour: Flavour;
  readonly livezGracePeriodMs: number;
  readonly shutdownDelayMs: number;
  readonly enableAdmissionPlugins: readonly string[];
  readonly disableAdmissionPlugins: readonly string[];
  readonly maxRequestBodyBytes: number;
  readonly storage: StorageKind;
}

/** The defaults (kube-apiserver's where they exist). */
export const defaultServerOptions: ServerOptions = {
  dataDir: './.svc-data',
  bindAddress: '127.0.0.1',
  securePort: 6443,
  tlsSans: [],
  flavour: 'svc',
  livezGracePeriodMs: 0,
  shutdownDelayMs: 0,
  enableAdmissionPlugins: [],
  disableAdmissionPlugins: [],
  maxRequestBodyBytes: 3 * 1024 * 1024,
  storage: 'sqlite',
};

/** Parses a Go duration (`300ms`, `5s`, `1m30s`, `1.5h`, `0`) into milliseconds. */
export function parseDuration(text: string): number | undefined {
  const s = text.trim();
  if (s === '0') return 0;
  const units: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const re = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s)) !== null) {
    total += Number(m[1]) * units[m[2]!]!;
    matched = re.lastIndex;
  }
  if (matched === 0 || matched !== s.length) return undefined;
  return total;
}

type FlagKind = 'string' | 'list' | 'int' | 'duration' | 'flavour' | 'storage' | 'bool';
interface FlagSpec {
  readonly kind: FlagKind;
  readonly key: keyof ServerOptions | 'help';
  readonly help: string;
}

const flags: Record<string, FlagSpec> = {
  'data-dir': { kind: 'string', key: 'dataDir', help: 'Directory of the database, certificates and admin.kubeconfig.' },
  'bind-address': { kind: 'string', key: 'bindAddress', help: 'The IP address on which to listen for the --secure-port port.' },
  'secure-port': { kind: 'int', key: 'securePort', help: 'The port on which to serve HTTPS (0 picks a free port).' },
  'tls-san': { kind: 'list', key: 'tlsSans', help: 'Extra subject alternative name (DNS name or IP) of the serving certificate; repeatable.' },
  flavour: { kind: 'flavour', key: 'flavour', help: 'Names served: svc (default) or k8s (Kubernetes names, for stock clients).' },
  'livez-grace-period': { kind: 'duration', key: 'livezGracePeriodMs', help: 'Time after start during which /livez ignores failing startup checks.' },
  'shutdown-delay-duration': { kind: 'duration', key: 'shutdownDelayMs', help: 'Time between /readyz failing and the listener closing on shutdown.' },
  'enable-admission-plugins': { kind: 'list', key: 'enableAdmissionPlugins', help: 'Admission plugins to enable in addition to the default ones.' },
  'disable-admission-plugins': { kind: 'list', key: 'disableAdmissionPlugins', help: 'Admission plugins to disable.' },
  'max-request-body-bytes': { kind: 'int', key: 'maxRequestBodyBytes', help: 'Largest accepted request body in bytes.' },
  storage: { kind: 'storage', key: 'storage', help: 'Storage backend: sqlite (default) or memory (tests).' },
  help: { kind: 'bool', key: 'help', help: 'Print this help.' },
};

/** The result of parsing a command line. */
export type ParsedFlags =
  | { readonly kind: 'options'; readonly options: ServerOptions }
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'error'; readonly message: string };

/** The `--help` text. */
export function helpText(): string {
  const lines = ['Usage: svc-apiserver [flags]', '', 'Flags:'];
  for (const [name, spec] of Object.entries(flags)) {
    const def = spec.key === 'help' ? undefined : defaultServerOptions[spec.key];
    const shown = def === undefined || (Array.isArray(def) && def.length === 0) ? '' : ` (default ${JSON.stringify(def)})`;
    lines.push(`  --${name}${spec.kind === 'bool' ? '' : ' value'}`.padEnd(36) + spec.help + shown);
  }
  return lines.join('\n') + '\n';
}

/** Parses command-line arguments (without the node and script paths). */
export function parseFlags(argv: readonly string[]): ParsedFlags {
  const out: Record<string, unknown> = { ...defaultServerOptions, tlsSans: [], enableAdmissionPlugins: [], disableAdmissionPlugins: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const m = /^--?([a-z0-9-]+)(?:=(.*))?$/s.exec(arg);
    if (!m) return { kind: 'error', message: `unexpected argument "${arg}"` };
    const name = m[1]!;
    const spec = flags[name];
    if (spec === undefined) return { kind: 'error', message: `unknown flag: --${name}` };
    if (spec.kind === 'bool') {
      if (m[2] === undefined || m[2] === 'true') return { kind: 'help', text: helpText() };
      continue;
    }
    let value = m[2];
    if (value === undefined) {
      value = argv[i + 1];
      if (value === undefined) return { kind: 'error', message: `flag needs an argument: --${name}` };
      i++;
    }
    const bad = (): ParsedFlags => ({ kind: 'error', message: `invalid argument "${value}" for "--${name}" flag` });
    switch (spec.kind) {
      case 'string':
        out[spec.key] = value;
        break;
      case 'list':
        (out[spec.key] as string[]).push(...value.split(',').map((v) => v.trim()).filter(Boolean));
        break;
      case 'int': {
        if (!/^\d+$/.test(value)) return bad();
        const n = Number(value);
        if (spec.key === 'securePort' && n > 65535) return bad();
        out[spec.key] = n;
        break;
      }
      case 'duration': {
        const ms = parseDuration(value);
        if (ms === undefined) return bad();
        out[spec.key] = ms;
        break;
      }
      case 'flavour': {
        const f = parseFlavour(value);
        if (f === undefined) return bad();
        out[spec.key] = f;
        break;
      }
      case 'storage':
        if (value !== 'sqlite' && value !== 'memory') return bad();
        out[spec.key] = value;
        break;
    }
  }
  return { kind: 'options', options: out as unknown as ServerOptions };
}
