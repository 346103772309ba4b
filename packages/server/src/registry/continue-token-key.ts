/**
 * The key continue tokens are signed with, kept in the data directory so that tokens a client holds survive a
 * restart of the server (kube's tokens are unsigned and carry only a revision and a key, so they survive restarts
 * too; ours are signed, so the key must outlive the process). Made on first start, 32 random bytes, hex in a file
 * readable by the owner only, written like the PKI's keys (temporary file, then rename).
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../pki/ensure-pki.js';

/** The key file's name in the data directory. */
export const continueTokenKeyFile = 'continue-token.key';

const keyBytes = 32;

/**
 * Reads the continue-token key of `dataDir`, making it on first use. Rejects when the file exists but is not a key
 * this server wrote (a damaged key is not silently replaced: that would void every token without saying so).
 */
export async function loadContinueTokenKey(dataDir: string): Promise<Uint8Array> {
  const path = join(dataDir, continueTokenKeyFile);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    const key = randomBytes(keyBytes);
    await writeFileAtomic(path, `${key.toString('hex')}\n`, 0o600);
    return key;
  }
  const hex = text.trim();
  if (!new RegExp(`^[0-9a-f]{${keyBytes * 2}}$`).test(hex)) throw new Error(`${path} does not hold a continue-token key (${keyBytes} bytes in hex)`);
  return Buffer.from(hex, 'hex');
}
