/**
 * Audit's cost on creates: creates/s of configmaps by 64 keep-alive HTTPS connections (the load generator) against a server writing every
 * request to its audit log at level Metadata, beside the same server without auditing (goal: at least 0.9 of it).
 * The two servers run side by side and are measured in interleaved rounds, so drift of the shared machine touches
 * each alike.
 *
 * Flags: --seconds=<per phase, default 3> --clients=<64>
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadGenerator } from './load/load-generator.js';
import { runStandalone } from './support.js';
import { createsLine, interleavedCreates, loadFor, startTarget, type Figures } from './create-load.js';

const policy = `apiVersion: audit.svc.io/v1
kind: Policy
rules:
- level: Metadata
`;

/** Runs the comparison and returns the report lines. */
export async function auditBench(seconds = 3, clients = 64): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-audit-'));
  const children: { stop(): Promise<unknown> }[] = [];
  const generators: LoadGenerator[] = [];
  const admins: { close(): void }[] = [];
  try {
    writeFileSync(join(dir, 'policy.yaml'), policy);
    const logPath = join(dir, 'audit.log');
    const off = await startTarget(join(dir, 'off'), []);
    const on = await startTarget(join(dir, 'on'), [`--audit-policy-file=${join(dir, 'policy.yaml')}`, `--audit-log-path=${logPath}`]);
    for (const t of [off, on]) {
      children.push(t.server);
      admins.push(t.admin);
      generators.push(await loadFor(t, clients));
    }
    const [baseline, audited] = await interleavedCreates(generators, seconds) as [Figures, Figures];
    await Promise.all(generators.splice(0).map((g) => g.close()));
    await on.server.stop();
    const lines = readFileSync(logPath, 'utf8').split('\n').filter((l) => l !== '').length;
    const line = (label: string, f: Figures, goal?: number) => createsLine(label, f, baseline, goal);
    return [
      `audit: ${clients} HTTPS connections creating configmaps, ${seconds}s per server in interleaved rounds, beside a server without auditing`,
      line('no audit', baseline),
      line('audit log at Metadata', audited, 0.9),
      `audit log: ${lines} events written; errors: off ${baseline.errors}, on ${audited.errors}`,
    ];
  } finally {
    await Promise.all(generators.map((g) => g.close()));
    for (const c of admins) c.close();
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

await runStandalone(import.meta.url, auditBench);
