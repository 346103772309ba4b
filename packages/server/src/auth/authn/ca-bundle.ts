/**
 * CA bundles for client-certificate verification: parsed from PEM, and a file-backed bundle reloaded when the
 * file changes (kube-apiserver's dynamic CA file content for `--client-ca-file` and
 * `--requestheader-client-ca-file`). A file that no longer parses keeps the previous bundle in force.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync, unwatchFile, watchFile, type Stats } from 'node:fs';
import { fail, ok, type Result } from '@svc-apiserver/api';

/** The certificates of a CA bundle, with its PEM text (the TLS server sends their names to clients). */
export interface CaBundle {
  /** The current certificates. */
  certificates(): readonly X509Certificate[];
  /** The current PEM text. */
  pem(): string;
  /** A number that changes whenever the bundle does (verdict caches key on it). */
  generation(): number;
  /** Called after each change. */
  onChange(listener: () => void): void;
  /** Stops watching. */
  close(): void;
}

/** Splits PEM text into its `-----BEGIN X-----` blocks (label, full block). */
export function pemBlocks(text: string): { label: string; block: string }[] {
  const out: { label: string; block: string }[] = [];
  const re = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g;
  for (const m of text.matchAll(re)) out.push({ label: m[1]!, block: m[0] });
  return out;
}

/** Parses the CERTIFICATE blocks of PEM text; an error when there are none or one does not parse. */
export function parseCertificates(pem: string): Result<X509Certificate[], string> {
  const blocks = pemBlocks(pem).filter((b) => b.label === 'CERTIFICATE');
  if (blocks.length === 0) return fail('no certificate found');
  try {
    return ok(blocks.map((b) => new X509Certificate(b.block)));
  } catch (e) {
    return fail(`unparsable certificate: ${(e as Error).message}`);
  }
}

/** A fixed bundle. Throws on PEM that holds no certificate (a programming or configuration bug caught at start). */
export function staticCaBundle(pem: string): CaBundle {
  const parsed = parseCertificates(pem);
  if (!parsed.ok) throw new Error(parsed.error);
  return { certificates: () => parsed.value, pem: () => pem, generation: () => 0, onChange() {}, close() {} };
}

/** Joins bundles: their certificates together (the generated CA beside `--client-ca-file`). */
export function unionCaBundle(parts: readonly CaBundle[]): CaBundle {
  return {
    certificates: () => parts.flatMap((p) => p.certificates()),
    pem: () => parts.map((p) => p.pem().trim()).filter(Boolean).join('\n') + '\n',
    generation: () => parts.reduce((sum, p) => sum + p.generation(), 0),
    onChange: (listener) => parts.forEach((p) => p.onChange(listener)),
    close: () => parts.forEach((p) => p.close()),
  };
}

/** Options of {@link fileCaBundle}. */
export interface FileCaBundleOptions {
  /** How often the file's modification is checked, in ms (default 1000). */
  readonly intervalMs?: number;
  readonly log?: (message: string) => void;
}

/**
 * A bundle read from a file and reloaded when it changes. Fails (as a value) when the file cannot be read or
 * parsed at start, as kube-apiserver refuses to start then.
 */
export function fileCaBundle(path: string, options: FileCaBundleOptions = {}): Result<CaBundle & { reload(): boolean }, string> {
  const read = (): Result<{ readonly pem: string; readonly certs: X509Certificate[] }, string> => {
    let pem: string;
    try {
      pem = readFileSync(path, 'utf8');
    } catch (e) {
      return fail(`cannot read ${path}: ${(e as Error).message}`);
    }
    const parsed = parseCertificates(pem);
    return parsed.ok ? ok({ pem, certs: parsed.value }) : fail(`${path}: ${parsed.error}`);
  };
  const first = read();
  if (!first.ok) return first;
  let current = first.value;
  let gen = 1;
  const listeners: (() => void)[] = [];
  const reload = (): boolean => {
    const next = read();
    if (!next.ok) {
      options.log?.(`keeping the previous CA bundle: ${next.error}`);
      return false;
    }
    if (next.value.pem === current.pem) return false;
    current = next.value;
    gen++;
    for (const l of listeners) l();
    return true;
  };
  // Polling the file's stat survives editors that replace the file by rename, which an inotify watch on the
  // file itself would lose.
  const onStat = (now: Stats, prev: Stats): void => {
    if (now.mtimeMs !== prev.mtimeMs || now.size !== prev.size || now.ino !== prev.ino) reload();
  };
  watchFile(path, { interval: options.intervalMs ?? 1000, persistent: false }, onStat);
  return ok({
      certificates: () => current.certs,
      pem: () => current.pem,
      generation: () => gen,
      onChange: (l) => listeners.push(l),
      close: () => unwatchFile(path, onStat),
      reload,
    });
}
