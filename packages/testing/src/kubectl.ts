/**
 * kubectl for the integration tests: `kubectl` on PATH, and versioned binaries (`kubectl.1.27`) in the directory
 * the real kubectl lives in (after following symlinks), run with an isolated home; tests skip cleanly without it.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { test } from 'node:test';

/** A kubectl binary to test with. */
export interface KubectlBinary {
  /** `kubectl` or `kubectl.1.27`. */
  readonly label: string;
  readonly path: string;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `kubectl` from PATH and the listed versioned binaries beside the real one; empty when kubectl is absent. */
export function findKubectls(versions: readonly string[] = ['1.27']): KubectlBinary[] {
  const onPath = (process.env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, 'kubectl')).find(executable);
  if (!onPath) return [];
  const out: KubectlBinary[] = [{ label: 'kubectl', path: onPath }];
  let realDir: string;
  try {
    realDir = dirname(realpathSync(onPath));
  } catch {
    return out;
  }
  for (const v of versions) {
    const candidate = join(realDir, `kubectl.${v}`);
    if (executable(candidate)) out.push({ label: `kubectl.${v}`, path: candidate });
  }
  return out;
}

/** The outcome of one kubectl run. */
export interface KubectlRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs kubectl with a kubeconfig, an isolated HOME and discovery cache, and a timeout. */
export function runKubectl(bin: KubectlBinary, kubeconfig: string, home: string, args: readonly string[], timeoutMs = 60_000): Promise<KubectlRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env.KUBECONFIG;
  return new Promise((resolve) => {
    execFile(bin.path, [`--kubeconfig=${kubeconfig}`, `--cache-dir=${join(home, 'cache')}`, ...args], { env, timeout: timeoutMs, maxBuffer: 32 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

/**
 * The kubectl binaries a test file drives (see {@link findKubectls}). When there is none, one test named `title`
 * is registered as skipped, so the run shows why, and the list is empty: the file declares no kubectl tests.
 */
export function kubectlsOrSkip(title: string, versions?: readonly string[]): KubectlBinary[] {
  const found = findKubectls(versions);
  if (found.length === 0) test(title, (t) => t.skip('kubectl is not on PATH'));
  return found;
}

/** kubectl's stdout after a run that must succeed; a failure fails the test with kubectl's output. */
export function succeeded(run: KubectlRun, what: string): string {
  assert.equal(run.code, 0, `${what} failed (${run.code}): ${run.stderr}${run.stdout}`);
  return run.stdout;
}
