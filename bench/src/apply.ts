/**
 * Server-side apply against PUT of the same object, in the same run on the same server: a 2 KB configmap per
 * client, rewritten with one changed value per request — by `PATCH` with `application/apply-patch+yaml` (a JSON
 * body, `fieldManager=bench`) and by an unconditional `PUT` of the full object. Both pay decode, field management,
 * admission, validation and a durable write; the difference is the merge, prune and conflict work of apply.
 */
import { fmt } from './support.js';
import type { LoadGenerator, LoadResult } from './load/load-generator.js';
import { expectOk, jsonHeaders, namespacePlan } from './load/phases.js';

const namespace = 'bench-apply';

/** A configmap of about 2 KB whose `counter` value changes per write. */
export function twoKilobyteConfigMap(name: string, counter: number | string): Record<string, unknown> {
  const data: Record<string, string> = { counter: String(counter) };
  for (let i = 0; i < 30; i++) data[`key-${String(i).padStart(2, '0')}`] = `value-${i}-`.padEnd(56, 'x');
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels: { app: 'bench', tier: 'apply' } }, data };
}

/** Runs both phases (`seconds` each, after a warm-up) on one object per connection and returns the report lines. */
export async function applyVersusPut(load: LoadGenerator, seconds: number): Promise<string[]> {
  const ns = await load.run(namespacePlan(namespace), 30);
  if (ns.ok === 0 && ns.statuses['409'] === undefined) throw new Error(`namespace ${namespace}: ${ns.firstError ?? ''}`);
  const base = `/api/v1/namespaces/${namespace}/configmaps`;
  const size = JSON.stringify(twoKilobyteConfigMap('x', 0)).length;
  const applyHeaders = { 'content-type': 'application/apply-patch+yaml', accept: 'application/json' };
  // Each object is created the way it is then written, so the writer owns its fields (an apply over fields an
  // Update manager owns would conflict, as in kube): one per connection, `{n}` being the connection's number.
  const each = { count: load.connections };
  expectOk(await load.run({ method: 'POST', path: `${base}?fieldManager=bench`, headers: jsonHeaders, body: JSON.stringify(twoKilobyteConfigMap('put-{n}', 0)), expect: 201, ...each }, 60), 'creating the PUT objects');
  expectOk(await load.run({ method: 'PATCH', path: `${base}/apply-{n}?fieldManager=bench`, headers: applyHeaders, body: JSON.stringify(twoKilobyteConfigMap('apply-{n}', 0)), expect: 201, ...each }, 60), 'creating the applied objects');
  // Every write changes the counter ({i}, the connection's request number).
  const putPlan = { method: 'PUT', path: `${base}/put-{c}?fieldManager=bench`, headers: jsonHeaders, body: JSON.stringify(twoKilobyteConfigMap('put-{c}', '{i}')), expect: 200 };
  const applyPlan = { method: 'PATCH', path: `${base}/apply-{c}?fieldManager=bench`, headers: applyHeaders, body: JSON.stringify(twoKilobyteConfigMap('apply-{c}', '{i}')), expect: 200 };
  const warm = Math.min(seconds, 2);
  await load.run(putPlan, warm);
  const put = await load.run(putPlan, seconds);
  await load.run(applyPlan, warm);
  const apply = await load.run(applyPlan, seconds);
  const line = (label: string, r: LoadResult): string =>
    `  ${label.padEnd(6)} ${fmt(r.perSecond).padStart(7)}/s   p50 ${fmt(r.p50, 1)} ms   p99 ${fmt(r.p99, 1)} ms   errors ${r.errors}`;
  return [
    `apply vs PUT of a ${fmt(size / 1024, 1)} KB configmap, ${load.connections} connections, ${seconds}s each after ${warm}s of warm-up:`,
    line('PUT', put),
    line('apply', apply),
    `  ratio apply/PUT: throughput ${fmt(apply.perSecond / put.perSecond, 3)}, p50 ${fmt(apply.p50 / put.p50, 2)}, p99 ${fmt(apply.p99 / put.p99, 2)}`,
  ];
}
