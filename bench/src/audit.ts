/**
 * The cost of observing a server, on creates: creates/s of configmaps by 64 keep-alive HTTPS connections (the load generator) against
 *
 * - a server with auditing off and every metric of the request path disabled (`--disabled-metrics`, whose metrics
 *   record nothing, as kube's disabled metrics do): the baseline;
 * - the same with its metrics on (the default), scraped once a second as Prometheus would;
 * - the same with its metrics on and every request written to its audit log at level Metadata (goal: at least 0.9
 *   of the baseline).
 *
 * The servers run side by side and are measured in interleaved rounds, so drift of the shared machine touches each
 * alike. A last line times the request metrics alone in this process (the filter's work for one request, labels
 * and all), beside the server time one create takes at the baseline's rate.
 *
 * Flags: --seconds=<per phase, default 3> --clients=<64>
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RestClient } from '@svc-apiserver/client';
import type { LoadGenerator } from './load/load-generator.js';
import { createMetricsRegistry } from 'svc-apiserver/metrics/metrics-registry';
import { endpointMetrics } from 'svc-apiserver/metrics/endpoint-metrics';
import { requestMetrics } from 'svc-apiserver/http/filters/request-metrics';
import { createRequestRecord } from 'svc-apiserver/http/request-record';
import type { RequestContext } from 'svc-apiserver/http/context';
import { fmt, runStandalone } from './support.js';
import { createsLine, interleavedCreates, loadFor, post, startTarget, type Figures } from './create-load.js';

const policy = `apiVersion: audit.svc.io/v1
kind: Policy
rules:
- level: Metadata
`;

/** The metric families a server serves, but the process and meta metrics (which no request records). */
async function requestPathMetrics(admin: RestClient): Promise<string[]> {
  const scraped = await admin.raw({ method: 'GET', path: '/metrics' });
  if (!scraped.ok || scraped.value.status !== 200) throw new Error('the metrics server could not be scraped');
  const names = [...scraped.value.body.toString('utf8').matchAll(/^# TYPE (\S+) /gm)].map((m) => m[1]!);
  return names.filter((n) => !/^(process_|nodejs_|registered_metric_total|hidden_metric_total|disabled_metric_total)/.test(n));
}

/** Scrapes `admin`'s server once a second until stopped; the number of scrapes. */
function scrapeEverySecond(admin: RestClient): { stop(): number } {
  let scrapes = 0;
  const timer = setInterval(() => {
    void admin.raw({ method: 'GET', path: '/metrics' }).then((r) => {
      if (r.ok && r.value.status === 200) scrapes++;
    });
  }, 1000);
  return {
    stop() {
      clearInterval(timer);
      return scrapes;
    },
  };
}

/** µs the request metrics filter takes for one create, measured over `n` requests in this process. */
async function filterMicros(n = 200_000): Promise<number> {
  const metrics = endpointMetrics(createMetricsRegistry({ warn: () => {} }));
  const filter = requestMetrics({ served: () => true, metrics }).filter;
  const info = {
    isResourceRequest: true, path: '/api/v1/namespaces/bench/configmaps', verb: 'create', apiPrefix: 'api', apiGroup: '', apiVersion: 'v1',
    namespace: 'bench', resource: 'configmaps', subresource: '', name: '', parts: ['namespaces', 'bench', 'configmaps'],
  };
  const query = new URLSearchParams();
  const next = (): Promise<void> => Promise.resolve();
  const run = async (count: number): Promise<number> => {
    const started = performance.now();
    for (let i = 0; i < count; i++) {
      const record = createRequestRecord('127.0.0.1');
      record.responseCode = 201;
      const ctx = { method: 'POST', path: info.path, query, headers: {}, info, record } as unknown as RequestContext;
      await filter(ctx, next);
    }
    return performance.now() - started;
  };
  await run(n / 10);
  // The loop's own cost (a record and a context per request) is taken off.
  const withFilter = await run(n);
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const record = createRequestRecord('127.0.0.1');
    record.responseCode = 201;
    const ctx = { method: 'POST', path: info.path, query, headers: {}, info, record } as unknown as RequestContext;
    await next();
    void ctx;
  }
  const bare = performance.now() - started;
  return ((withFilter - bare) * 1000) / n;
}

/** Runs the comparison and returns the report lines. */
export async function auditBench(seconds = 3, clients = 64): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-audit-'));
  const children: { stop(): Promise<unknown> }[] = [];
  const generators: LoadGenerator[] = [];
  const admins: { close(): void }[] = [];
  try {
    writeFileSync(join(dir, 'policy.yaml'), policy);
    const logPath = join(dir, 'audit.log');
    const metered = await startTarget(join(dir, 'metrics'), []);
    const both = await startTarget(join(dir, 'both'), [`--audit-policy-file=${join(dir, 'policy.yaml')}`, `--audit-log-path=${logPath}`]);
    // Every metric a create records, seen on a server that made some.
    for (let i = 0; i < 5; i++) await post(metered.admin, '/api/v1/namespaces/bench/configmaps', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `warm-${i}` } });
    const disabled = await requestPathMetrics(metered.admin);
    const off = await startTarget(join(dir, 'off'), [`--disabled-metrics=${disabled.join(',')}`]);
    for (const t of [off, metered, both]) {
      children.push(t.server);
      admins.push(t.admin);
      generators.push(await loadFor(t, clients));
    }
    const scrapers = [scrapeEverySecond(metered.admin), scrapeEverySecond(both.admin)];
    const [baseline, withMetrics, withBoth] = await interleavedCreates(generators, seconds) as [Figures, Figures, Figures];
    const scrapes = scrapers.map((s) => s.stop());
    await Promise.all(generators.splice(0).map((g) => g.close()));
    await both.server.stop();
    const lines = readFileSync(logPath, 'utf8').split('\n').filter((l) => l !== '').length;
    const line = (label: string, f: Figures, goal?: number) => createsLine(label, f, baseline, goal);
    const micros = await filterMicros();
    return [
      `audit and metrics: ${clients} HTTPS connections creating configmaps, ${seconds}s per server in interleaved rounds, beside a server with both off`,
      line('metrics and audit off', baseline),
      line('metrics on', withMetrics),
      line('metrics and audit (Metadata)', withBoth, 0.9),
      `metrics off: ${disabled.length} metrics disabled; scrapes: ${scrapes.join(', ')}; audit log: ${lines} events; errors: ${baseline.errors}, ${withMetrics.errors}, ${withBoth.errors}`,
      `request metrics filter: ${fmt(micros, 2)} µs per create beside ${fmt(1e6 / baseline.perSecond, 0)} µs of server time per create at the baseline rate (ratio ${fmt(micros / (1e6 / baseline.perSecond), 3)})`,
    ];
  } finally {
    await Promise.all(generators.map((g) => g.close()));
    for (const c of admins) c.close();
    await Promise.all(children.map((c) => c.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

await runStandalone(import.meta.url, auditBench);
