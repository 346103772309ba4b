/**
 * Audit's cost on creates: creates/s of configmaps by 64 keep-alive HTTPS clients against a server writing every
 * request to its audit log at level Metadata, beside the same server without auditing (goal: at least 0.9 of it).
 * The two servers run side by side and are measured in interleaved rounds, so drift of the shared machine touches
 * each alike.
 *
 * Flags: --seconds=<per phase, default 3> --clients=<64>
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { RestClient } from '@svc-apiserver/client';
import { fmt, isMain, percentile, type Child } from './support.js';
import { creates, startTarget, type Phase } from './create-load.js';

const policy = `apiVersion: audit.svc.io/v1
kind: Policy
rules:
- level: Metadata
`;

/** Runs the comparison and returns the report lines. */
export async function auditBench(seconds = 3, clients = 64): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-audit-'));
  const children: Child[] = [];
  const open: RestClient[] = [];
  try {
    writeFileSync(join(dir, 'policy.yaml'), policy);
    const logPath = join(dir, 'audit.log');
    const off = await startTarget(join(dir, 'off'), [], clients);
    const on = await startTarget(join(dir, 'on'), [`--audit-policy-file=${join(dir, 'policy.yaml')}`, `--audit-log-path=${logPath}`], clients);
    const targets = [off, on];
    for (const t of targets) {
      children.push(t.child);
      open.push(t.admin, ...t.workers);
    }
    const rounds = 4;
    const totals: Phase[] = targets.map(() => ({ ops: 0, seconds: 0, errors: 0, latencies: [] }));
    for (let r = 0; r < rounds; r++) {
      for (const [i, t] of targets.entries()) {
        const f = await creates(t.workers, (seconds * 1000) / rounds, `r${r}`);
        const total = totals[i]! as { ops: number; seconds: number; errors: number; latencies: number[] };
        total.ops += f.ops;
        total.seconds += f.seconds;
        total.errors += f.errors;
        total.latencies.push(...f.latencies);
      }
    }
    const [baseline, audited] = totals.map((t) => {
      const sorted = [...t.latencies].sort((a, b) => a - b);
      return { perSecond: t.ops / t.seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99), errors: t.errors };
    }) as [{ perSecond: number; p50: number; p99: number; errors: number }, { perSecond: number; p50: number; p99: number; errors: number }];
    await on.child.stop();
    const lines = readFileSync(logPath, 'utf8').split('\n').filter((l) => l !== '').length;
    const line = (label: string, f: typeof baseline, goal?: number) =>
      `${label.padEnd(28)}${fmt(f.perSecond).padStart(8)} creates/s (p50/p99 ${fmt(f.p50, 1)}/${fmt(f.p99, 1)} ms)   ratio ${fmt(f.perSecond / baseline.perSecond, 3)}` +
      (goal === undefined ? '' : ` (goal ≥ ${goal})`);
    return [
      `audit: ${clients} HTTPS clients creating configmaps, ${seconds}s per server, beside a server without auditing`,
      line('no audit', baseline),
      line('audit log at Metadata', audited, 0.9),
      `audit log: ${lines} events written; errors: off ${baseline.errors}, on ${audited.errors}`,
    ];
  } finally {
    for (const c of open) c.close();
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { seconds: { type: 'string' }, clients: { type: 'string' } } });
  process.stdout.write(`${(await auditBench(Number(values.seconds ?? '3'), Number(values.clients ?? '64'))).join('\n')}\n`);
}
