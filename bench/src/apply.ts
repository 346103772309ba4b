/**
 * Server-side apply against PUT of the same object, in the same run on the same server: a 2 KB configmap per
 * client, rewritten with one changed value per request — by `PATCH` with `application/apply-patch+yaml` (a JSON
 * body, `fieldManager=bench`) and by an unconditional `PUT` of the full object. Both pay decode, field management,
 * admission, validation and a durable write; the difference is the merge, prune and conflict work of apply.
 */
import type { RestClient } from '@svc-apiserver/client';
import { percentile } from './support.js';

/** Throughput and latency of one phase. */
export interface PhaseFigures {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly errors: number;
}

const namespace = 'bench-apply';
const json = { 'content-type': 'application/json', accept: 'application/json' };

/** A configmap of about 2 KB whose `counter` value changes per write. */
export function twoKilobyteConfigMap(name: string, counter: number): Record<string, unknown> {
  const data: Record<string, string> = { counter: String(counter) };
  for (let i = 0; i < 30; i++) data[`key-${String(i).padStart(2, '0')}`] = `value-${i}-`.padEnd(56, 'x');
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels: { app: 'bench', tier: 'apply' } }, data };
}

async function phase(workers: readonly RestClient[], ms: number, op: (c: RestClient, w: number, i: number) => Promise<boolean>): Promise<PhaseFigures> {
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const end = start + ms;
  await Promise.all(workers.map(async (c, w) => {
    for (let i = 1; performance.now() < end; i++) {
      const t0 = performance.now();
      if (!(await op(c, w, i))) errors++;
      latencies.push(performance.now() - t0);
    }
  }));
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: (latencies.length - errors) / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors };
}

/** Runs both phases (`seconds` each) and returns the report lines. */
export async function applyVersusPut(workers: readonly RestClient[], setup: RestClient, seconds: number): Promise<string[]> {
  const ns = await setup.raw({ method: 'POST', path: '/api/v1/namespaces', headers: json, body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }) });
  if (!ns.ok || (ns.value.status !== 201 && ns.value.status !== 409)) throw new Error('namespace bench-apply could not be created');
  const base = `/api/v1/namespaces/${namespace}/configmaps`;
  const size = JSON.stringify(twoKilobyteConfigMap('x', 0)).length;
  const applyHeaders = { 'content-type': 'application/apply-patch+yaml', accept: 'application/json' };
  // Each object is created the way it is then written, so the writer owns its fields (an apply over fields an
  // Update manager owns would conflict, as in kube).
  await Promise.all(workers.map(async (c, w) => {
    const put = await c.raw({ method: 'POST', path: `${base}?fieldManager=bench`, headers: json, body: JSON.stringify(twoKilobyteConfigMap(`put-${w}`, 0)) });
    const apply = await c.raw({ method: 'PATCH', path: `${base}/apply-${w}?fieldManager=bench`, headers: applyHeaders, body: JSON.stringify(twoKilobyteConfigMap(`apply-${w}`, 0)) });
    if (!put.ok || put.value.status !== 201 || !apply.ok || apply.value.status !== 201) throw new Error(`creating the objects of client ${w} failed`);
  }));
  const put = await phase(workers, seconds * 1000, async (c, w, i) => {
    const r = await c.raw({ method: 'PUT', path: `${base}/put-${w}?fieldManager=bench`, headers: json, body: JSON.stringify(twoKilobyteConfigMap(`put-${w}`, i)) });
    return r.ok && r.value.status === 200;
  });
  const apply = await phase(workers, seconds * 1000, async (c, w, i) => {
    const r = await c.raw({
      method: 'PATCH', path: `${base}/apply-${w}?fieldManager=bench`,
      headers: applyHeaders,
      body: JSON.stringify(twoKilobyteConfigMap(`apply-${w}`, i)),
    });
    return r.ok && r.value.status === 200;
  });
  const f = (n: number, d = 0): string => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
  return [
    `apply vs PUT of a ${f(size / 1024, 1)} KB configmap, ${workers.length} clients, ${seconds}s each:`,
    `  PUT    ${f(put.perSecond).padStart(7)}/s   p50 ${f(put.p50, 1)} ms   p99 ${f(put.p99, 1)} ms   errors ${put.errors}`,
    `  apply  ${f(apply.perSecond).padStart(7)}/s   p50 ${f(apply.p50, 1)} ms   p99 ${f(apply.p99, 1)} ms   errors ${apply.errors}`,
    `  ratio apply/PUT: throughput ${f(apply.perSecond / put.perSecond, 3)}, p50 ${f(apply.p50 / put.p50, 2)}, p99 ${f(apply.p99 / put.p99, 2)}`,
  ];
}
