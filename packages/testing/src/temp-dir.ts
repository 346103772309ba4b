/**
 * Temporary directories for tests: made fresh under the OS temp dir and removed when the test or suite that made
 * them ends, so a failing assertion leaves nothing behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * What ends: a test's context (`t`), or a suite or file through node:test's hook (`{ after }`); either runs `fn`
 * when it ends.
 */
export interface Cleanup {
  after(fn: () => void): void;
}

/** A fresh directory named `<prefix>XXXXXX` under the OS temp dir, removed (with its contents) when `owner` ends. */
export function tempDir(owner: Cleanup, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  owner.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
