/**
 * In-process start to ready of the test server (`startTestServer` on memory storage): p50 and p99 of 20 starts,
 * each stopped before the next, after one warm-up start that loads the modules and generates the process's PKI.
 * Goal: p50 and p99 at most 150 ms. Baseline in the same run: a raw node:https server with the server's TLS files
 * started and stopped the same way (what any HTTPS server pays). Run alone with `node bench/dist/test-server-start.js`.
 */
import { createServer } from 'node:https';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer } from '@svc-apiserver/test-server';
import { fmt, isMain, percentile } from './support.js';

/** The figures, as report lines. */
export async function testServerStartBench(starts = 20): Promise<string[]> {
  const warm = await startTestServer();
  const dataDir = join(warm.kubeconfigPath, '..');
  const tls = { cert: readFileSync(join(dataDir, 'serving.crt')), key: readFileSync(join(dataDir, 'serving.key')) };
  await warm.stop();
  const times: number[] = [];
  for (let i = 0; i < starts; i++) {
    const t0 = performance.now();
    const s = await startTestServer();
    times.push(performance.now() - t0);
    await s.stop();
  }
  const raw: number[] = [];
  for (let i = 0; i < starts; i++) {
    const t0 = performance.now();
    const server = createServer(tls, (_req, res) => res.end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    raw.push(performance.now() - t0);
    await new Promise<void>((r) => server.close(() => r()));
  }
  times.sort((a, b) => a - b);
  raw.sort((a, b) => a - b);
  return [
    `test server start to ready (memory, in-process, ${starts} starts): p50 ${fmt(percentile(times, 50))} ms, p99 ${fmt(percentile(times, 99))} ms (goal <= 150 ms)`,
    `  baseline raw node:https listen: p50 ${fmt(percentile(raw, 50), 2)} ms, p99 ${fmt(percentile(raw, 99), 2)} ms`,
  ];
}

if (isMain(import.meta.url)) process.stdout.write(`${(await testServerStartBench()).join('\n')}\n`);
