/**
 * The server's PKI in its data directory: on first start a CA, a serving certificate and an admin client
 * certificate, stored as PEM files (keys 0600) and reused on later starts. The serving certificate is issued again
 * when its SAN set changed (new bind address or --tls-san) or it is near its end.
 */
import { mkdir, readFile, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Names } from '@svc-apiserver/api';
import { certificateSans, certificateUsable } from './certificate-inspection.js';
import type { CertAndKey } from './certificates.js';

/** The file names in the data directory. */
export const pkiFiles = {
  caCert: 'ca.crt',
  caKey: 'ca.key',
  servingCert: 'serving.crt',
  servingKey: 'serving.key',
  adminCert: 'admin.crt',
  adminKey: 'admin.key',
} as const;

/** The loaded PKI. */
export interface Pki {
  readonly ca: CertAndKey;
  readonly serving: CertAndKey;
  readonly admin: CertAndKey;
  /** Which parts were created on this start (for logs and tests). */
  readonly created: readonly ('ca' | 'serving' | 'admin')[];
}

/** Options of {@link ensurePki}. */
export interface EnsurePkiOptions {
  readonly dir: string;
  /** The serving certificate's SANs. */
  readonly sans: readonly string[];
  /** Common name of the CA. */
  readonly caName: string;
}

async function readPair(dir: string, certFile: string, keyFile: string): Promise<CertAndKey | undefined> {
  try {
    const [certPem, keyPem] = await Promise.all([readFile(join(dir, certFile), 'utf8'), readFile(join(dir, keyFile), 'utf8')]);
    return { certPem, keyPem };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

/** Writes a file atomically (temp file + rename) so a crash never leaves half a key. */
export async function writeFileAtomic(path: string, data: string, mode: number): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, data, { mode });
  await rename(tmp, path);
}

async function writePair(dir: string, certFile: string, keyFile: string, pair: CertAndKey): Promise<void> {
  await writeFileAtomic(join(dir, keyFile), pair.keyPem, 0o600);
  await writeFileAtomic(join(dir, certFile), pair.certPem, 0o644);
}

/** The SAN set of the serving certificate: the fixed local names plus the configured ones, deduplicated. */
export function servingSans(bindAddress: string, extra: readonly string[]): string[] {
  const all = ['localhost', '127.0.0.1', '::1', bindAddress, ...extra]
    .map((s) => s.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1'))
    .filter((s) => s !== '' && s !== '0.0.0.0' && s !== '::');
  return [...new Set(all)];
}

/** The common name of the server's CA. */
export function pkiCaName(names: Names): string {
  return `${names.name('serverName')}-ca`;
}

/** Loads the PKI from `dir`, creating what is missing or stale. */
export async function ensurePki(options: EnsurePkiOptions): Promise<Pki> {
  const { dir } = options;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const created: ('ca' | 'serving' | 'admin')[] = [];
  let ca = await readPair(dir, pkiFiles.caCert, pkiFiles.caKey);
  // The issuing library is loaded only when something must be issued: later starts skip its load time.
  const issuing = () => import('./certificates.js');
  if (ca === undefined) {
    ca = await (await issuing()).createCa(options.caName);
    await writePair(dir, pkiFiles.caCert, pkiFiles.caKey, ca);
    created.push('ca');
  }
  const wanted = [...options.sans].map((s) => s.toLowerCase()).sort();
  const [servingOld, adminOld] = await Promise.all([
    readPair(dir, pkiFiles.servingCert, pkiFiles.servingKey),
    readPair(dir, pkiFiles.adminCert, pkiFiles.adminKey),
  ]);
  const signer = ca;
  const caPem = ca.certPem;
  const servingOk = servingOld !== undefined && certificateUsable(servingOld.certPem, caPem) &&
    JSON.stringify(certificateSans(servingOld.certPem)) === JSON.stringify(normalizeForCompare(wanted));
  const adminOk = adminOld !== undefined && certificateUsable(adminOld.certPem, caPem);
  const [serving, admin] = await Promise.all([
    servingOk ? servingOld : issuing().then(({ issueLeaf }) => issueLeaf(signer, { commonName: options.caName.replace(/-ca$/, ''), usage: 'server', sans: options.sans })),
    adminOk ? adminOld : issuing().then(({ issueLeaf }) => issueLeaf(signer, { commonName: 'admin', organizations: ['system:masters'], usage: 'client' })),
  ]);
  if (!servingOk) {
    await writePair(dir, pkiFiles.servingCert, pkiFiles.servingKey, serving);
    created.push('serving');
  }
  if (!adminOk) {
    await writePair(dir, pkiFiles.adminCert, pkiFiles.adminKey, admin);
    created.push('admin');
  }
  return { ca, serving, admin, created };
}

/** Node prints IPv6 SANs in full form; compare in that form. */
function normalizeForCompare(sans: readonly string[]): string[] {
  return sans.map((s) => (s === '::1' ? '0:0:0:0:0:0:0:1' : s)).sort();
}
