/**
 * What the benchmarks' request phases share on top of the load generator: the JSON headers, plans for one-off
 * setup requests, a check that a setup run had no error, and the report's words for the generator.
 */
import { fmt } from '../support.js';
import { LatencyHistogram } from './latency-histogram.js';
import type { LoadGenerator, LoadPlan, LoadResult } from './load-generator.js';

/** Request headers of a JSON body that asks for JSON back. */
export const jsonHeaders: Readonly<Record<string, string>> = { 'content-type': 'application/json', accept: 'application/json' };

/** One request from the first connection: a setup step (`expect` 201 unless said). */
export function oncePlan(method: string, path: string, body?: unknown, expect = 201): LoadPlan {
  return {
    method, path, headers: jsonHeaders, expect, count: 1, connections: 1,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
}

/** Creates namespace `name`. */
export function namespacePlan(name: string): LoadPlan {
  return oncePlan('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}

/** Throws unless every request of a setup run succeeded. */
export function expectOk(result: LoadResult, what: string): LoadResult {
  if (result.errors > 0 || result.ok === 0) throw new Error(`${what}: ${result.errors} errors (${result.firstError ?? 'no answer'})`);
  return result;
}

/** Words for the report: the generator's processes and connections. */
export function describeGenerator(load: LoadGenerator): string {
  return `load generator: ${load.processes} worker process${load.processes === 1 ? '' : 'es'} apart from the servers, ${load.connections} keep-alive HTTP/1.1 connections`;
}

/** `p50/p99` in ms, one decimal. */
export function latencies(r: Pick<LoadResult, 'p50' | 'p99'>): string {
  return `${fmt(r.p50, 1)}/${fmt(r.p99, 1)}`;
}

/**
 * Runs `phase(target, round)` for every target in `rounds` interleaved rounds of `seconds / rounds` each, so that
 * drift of the shared machine touches each target alike; the figures merged per target in the targets' order.
 */
export async function interleaved<T>(targets: readonly T[], seconds: number, phase: (target: T, round: number, seconds: number) => Promise<LoadResult>, rounds = 4): Promise<Figures[]> {
  const totals = targets.map(() => ({ ok: 0, errors: 0, seconds: 0, histogram: new LatencyHistogram(), firstError: undefined as string | undefined }));
  for (let r = 0; r < rounds; r++) {
    for (const [i, t] of targets.entries()) {
      const f = await phase(t, r, seconds / rounds);
      const total = totals[i]!;
      total.ok += f.ok;
      total.errors += f.errors;
      total.seconds += f.seconds;
      total.histogram.add(f.histogram);
      total.firstError ??= f.firstError;
    }
  }
  return totals.map((t) => ({
    perSecond: t.seconds > 0 ? t.ok / t.seconds : 0, p50: t.histogram.percentile(50), p99: t.histogram.percentile(99), errors: t.errors,
    ...(t.firstError === undefined ? {} : { firstError: t.firstError }),
  }));
}

/** Requests/s and latencies of one target over a comparison. */
export interface Figures {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
  readonly firstError?: string;
}
