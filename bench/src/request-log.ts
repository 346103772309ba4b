/**
 * The request log's cost on creates: creates/s of configmaps by 64 keep-alive HTTPS connections (the load generator) against servers that
 * log every request (`-v=3`, in the text and in the JSON format), beside the same server at the default verbosity,
 * which logs none. The servers run side by side and are measured in interleaved rounds, so drift of the shared
 * machine touches each alike.
 *
 * Flags: --seconds=<per phase, default 3> --clients=<64>
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadGenerator } from './load/load-generator.js';
import { runStandalone } from './support.js';
import { createsLine, interleavedCreates, loadFor, startTarget, type Figures } from './create-load.js';

/** Runs the comparison and returns the report lines. */
export async function requestLogBench(seconds = 3, clients = 64): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-request-log-'));
  const children: { stop(): Promise<unknown>; output(): string }[] = [];
  const generators: LoadGenerator[] = [];
  const admins: { close(): void }[] = [];
  try {
    const quiet = await startTarget(join(dir, 'quiet'), []);
    const text = await startTarget(join(dir, 'text'), ['-v=3']);
    const json = await startTarget(join(dir, 'json'), ['-v=3', '--logging-format=json']);
    for (const t of [quiet, text, json]) {
      children.push(t.server);
      admins.push(t.admin);
      generators.push(await loadFor(t, clients));
    }
    const [baseline, textFigures, jsonFigures] = await interleavedCreates(generators, seconds) as [Figures, Figures, Figures];
    const logged = (i: number) => children[i]!.output().split('\n').filter((l) => l.includes('"HTTP"') || l.includes('"msg":"HTTP"')).length;
    return [
      `request log: ${clients} HTTPS connections creating configmaps, ${seconds}s per server in interleaved rounds, beside a server at -v=0`,
      createsLine('-v=0 (no request log)', baseline, baseline),
      createsLine('-v=3 text', textFigures, baseline),
      createsLine('-v=3 json', jsonFigures, baseline),
      `request lines written: -v=0 ${logged(0)}, text ${logged(1)}, json ${logged(2)}`,
    ];
  } finally {
    await Promise.all(generators.map((g) => g.close()));
    for (const c of admins) c.close();
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

await runStandalone(import.meta.url, requestLogBench);
