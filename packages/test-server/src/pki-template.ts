/**
 * The PKI of in-process test servers, made once per process: the first server generates its CA, serving, admin,
 * front-proxy and service account keys in its data directory as any server does; later servers start from a copy
 * of those files, because key generation is most of a cold start. Every server still has its own data directory
 * and listener; sharing the CA only means an admin certificate of one is trusted by another, which tests never
 * rely on either way.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The files a server reuses from its data directory instead of generating them. */
const reusableFiles = [
  'ca.crt', 'ca.key', 'serving.crt', 'serving.key', 'admin.crt', 'admin.key',
  'front-proxy-ca.crt', 'front-proxy-ca.key', 'front-proxy-client.crt', 'front-proxy-client.key', 'sa.key',
] as const;

let template: string | undefined;

/** Copies the process's PKI into `dataDir`, when a server of this process already made one. */
export function seedPki(dataDir: string): void {
  if (template === undefined) return;
  for (const f of reusableFiles) copyFileSync(join(template, f), join(dataDir, f));
}

/** Keeps the PKI a started server generated in `dataDir` for the servers started after it. */
export function rememberPki(dataDir: string): void {
  if (template !== undefined || !reusableFiles.every((f) => existsSync(join(dataDir, f)))) return;
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-pki-'));
  for (const f of reusableFiles) copyFileSync(join(dataDir, f), join(dir, f));
  template = dir;
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
}
