/**
 * The server process from spawn to ready (its `ready` line: /readyz passes), on SQLite: a first start (empty data
 * dir: PKI generated, the default policy and the other start objects written) and a restart (the same data dir: PKI
 * loaded, the start objects already current), p50 and p99 of `starts` each, the two kinds interleaved. Goals: first
 * start at most 1.0 s, restart at most 0.4 s. Baseline in the same run: a node process spawned to listen on HTTPS
 * with the server's TLS files (what any node HTTPS server pays before its first byte). Run alone with
 * `node bench/dist/server-start.js [--starts=20]`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchServer } from '@svc-apiserver/testing/launch-server';
import { fmt, isMain, percentile } from './support.js';

/** A node process that listens on HTTPS with `cert` and `key`, prints its port and exits when its stdin closes. */
const rawServerScript = `
const { createServer } = require('node:https');
const { readFileSync } = require('node:fs');
const s = createServer({ cert: readFileSync(process.argv[1]), key: readFileSync(process.argv[2]) }, (q, r) => r.end());
s.listen(0, '127.0.0.1', () => process.stdout.write('listening ' + s.address().port + '\\n'));
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

/** Ms from spawn of the raw HTTPS process to its listening line. */
async function rawStart(cert: string, key: string): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ['-e', rawServerScript, cert, key], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('listening') && resolve());
    child.on('exit', (code) => reject(new Error(`raw server exited ${String(code)}`)));
  });
  const ms = performance.now() - t0;
  const exited = new Promise((r) => child.on('exit', r));
  child.stdin.end();
  await exited;
  return ms;
}

/** Ms from spawn to the ready line of a server on `dataDir`. */
async function serverStart(dataDir: string): Promise<number> {
  const t0 = performance.now();
  const server = await launchServer({ dataDir, storage: 'sqlite' });
  const ms = performance.now() - t0;
  await server.stop();
  return ms;
}

const line = (what: string, sorted: readonly number[], goal: number): string =>
  `${what}: p50 ${fmt(percentile(sorted, 50))} ms, p99 ${fmt(percentile(sorted, 99))} ms (goal <= ${goal} ms; p50 ${fmt(percentile(sorted, 50) / goal, 2)}x the goal)`;

/** The figures, as report lines. */
export async function serverStartBench(starts = 20): Promise<string[]> {
  const first: number[] = [];
  const restart: number[] = [];
  const raw: number[] = [];
  let tls: { cert: string; key: string } | undefined;
  const dirs: string[] = [];
  try {
    // One warm-up pair, not counted: the page cache of the modules and the binary.
    const warm = mkdtempSync(join(tmpdir(), 'svc-bench-start-'));
    dirs.push(warm);
    await serverStart(warm);
    await serverStart(warm);
    tls = { cert: join(warm, 'serving.crt'), key: join(warm, 'serving.key') };
    await rawStart(tls.cert, tls.key);
    for (let i = 0; i < starts; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'svc-bench-start-'));
      dirs.push(dir);
      first.push(await serverStart(dir));
      restart.push(await serverStart(dir));
      raw.push(await rawStart(tls.cert, tls.key));
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
  for (const list of [first, restart, raw]) list.sort((a, b) => a - b);
  const rawP50 = percentile(raw, 50);
  return [
    `server process start to ready (SQLite, ${starts} starts of each kind, interleaved):`,
    `  ${line('first start', first, 1000)}; ${fmt(percentile(first, 50) / rawP50, 1)}x the baseline p50`,
    `  ${line('restart', restart, 400)}; ${fmt(percentile(restart, 50) / rawP50, 1)}x the baseline p50`,
    `  baseline node process spawned to listen on HTTPS: p50 ${fmt(rawP50)} ms, p99 ${fmt(percentile(raw, 99))} ms`,
  ];
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { starts: { type: 'string' } } });
  process.stdout.write(`${(await serverStartBench(Number(values.starts ?? '20'))).join('\n')}\n`);
}
