/**
 * Extending the API, measured beside what it extends in the same run on the same server (SQLite, 64 keep-alive HTTPS connections of the load generator):
 * creates of custom objects against creates of ConfigMaps, a list of 3,000 custom objects against a list of 3,000
 * ConfigMaps (goal ≥ 0.8× for both), and a GET through an APIService proxy to an extension server on loopback
 * against the same GET sent to that server directly (goal ≥ 0.7×), in interleaved rounds, with the CPU time per GET
 * of the API server (proxied, and serving a ConfigMap it stores) and of the extension server. Loopback only, bounded
 * in time.
 *
 * Standalone: `node bench/dist/extensions.js [--seconds=3] [--clients=64] [--items=3000]`.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { namesFor } from '@svc-apiserver/api';
import { createClient, loadKubeconfig, type RestClient } from '@svc-apiserver/client';
import { launchServer, type LaunchedServer } from '@svc-apiserver/testing/launch-server';
import { fmt, isMain, sleep } from './support.js';
import { pinServer } from './load/cpu-pinning.js';
import { startLoadGenerator, targetOf, type LoadGenerator, type LoadPlan } from './load/load-generator.js';
import { expectOk } from './load/phases.js';
import { interleavedWithCpu, withCpu, type CpuFigures } from './server-cpu.js';

const names = namesFor('svc');
const json = { 'content-type': 'application/json', accept: 'application/json' };
const group = 'bench.example.com';

async function ok(client: RestClient, method: string, path: string, body?: unknown, want = [200, 201]): Promise<unknown> {
  const r = await client.raw({ method, path, headers: json, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!r.ok || !want.includes(r.value.status)) throw new Error(`${method} ${path}: ${r.ok ? `${r.value.status} ${r.value.body.toString()}` : r.error.message}`);
  return JSON.parse(r.value.body.toString());
}

const widgetCrd = {
  apiVersion: `${names.group('apiextensions')}/v1`, kind: 'CustomResourceDefinition', metadata: { name: `widgets.${group}` },
  spec: {
    group, scope: 'Namespaced', names: { plural: 'widgets', kind: 'Widget' },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { data: { type: 'object', additionalProperties: { type: 'string' } } } } },
    }],
  },
};

/** A ConfigMap and a Widget with the same payload. */
const payload = { k: 'v'.repeat(64) };
const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: payload });
const widget = (name: string) => ({ apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name }, data: payload });

/** The extension server: discovery and one object, answered at once. */
function startBackend(certPem: string, keyPem: string): Promise<Server> {
  const discovery = JSON.stringify({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'ext.bench.example.com/v1', resources: [{ name: 'things', singularName: 'thing', namespaced: true, kind: 'Thing', verbs: ['get'] }] });
  const thing = JSON.stringify({ apiVersion: 'ext.bench.example.com/v1', kind: 'Thing', metadata: { name: 't', namespace: 'default' }, spec: payload });
  const server = createServer({ cert: certPem, key: keyPem }, (req, res) => {
    const body = req.url?.startsWith('/apis/ext.bench.example.com/v1/namespaces') ? thing : discovery;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Runs the measurements and returns the report lines. */
export async function extensionsBench(seconds: number, clients: number, items = 3000): Promise<string[]> {
  const open: RestClient[] = [];
  const generators: LoadGenerator[] = [];
  let api: LaunchedServer | undefined;
  let backend: Server | undefined;
  try {
    api = await launchServer({ storage: 'sqlite' });
    pinServer(api.child.pid);
    const dataDir = api.dataDir;
    const conn = loadKubeconfig({ path: api.kubeconfigPath });
    if (!conn.ok) throw new Error(conn.error);
    const setup = createClient(conn.value);
    open.push(setup);
    for (const ns of ['cm', 'cr', 'cm-list', 'cr-list']) await ok(setup, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await ok(setup, 'POST', `/apis/${names.group('apiextensions')}/v1/customresourcedefinitions`, widgetCrd);
    for (let i = 0; ; i++) {
      const r = await setup.raw({ method: 'GET', path: `/apis/${group}/v1`, headers: json });
      if (r.ok && r.value.status === 200) break;
      if (i > 200) throw new Error('the CRD was not served');
      await sleep(50);
    }
    const load = await startLoadGenerator(targetOf(conn.value), { connections: clients });
    generators.push(load);
    const create = (path: string, make: (n: string) => unknown): LoadPlan => ({ method: 'POST', path, headers: json, body: JSON.stringify(make('o-{c}-{i}')), expect: 201 });
    const warm = Math.min(seconds, 2);
    await load.run({ ...create('/api/v1/namespaces/cm/configmaps', configMap), body: JSON.stringify(configMap('warm-{c}-{i}')) }, warm);
    const cmCreates = await load.run(create('/api/v1/namespaces/cm/configmaps', configMap), seconds);
    await load.run({ ...create(`/apis/${group}/v1/namespaces/cr/widgets`, widget), body: JSON.stringify(widget('warm-{c}-{i}')) }, warm);
    const crCreates = await load.run(create(`/apis/${group}/v1/namespaces/cr/widgets`, widget), seconds);

    const fill = (path: string, make: (n: string) => unknown): LoadPlan => ({ ...create(path, make), body: JSON.stringify(make('i-{n}')), count: items });
    expectOk(await load.run(fill('/api/v1/namespaces/cm-list/configmaps', configMap), 120), 'filling the configmap list');
    expectOk(await load.run(fill(`/apis/${group}/v1/namespaces/cr-list/widgets`, widget), 120), 'filling the custom object list');
    // Lists one after another, as one client reads them.
    const listP50 = async (path: string): Promise<number> =>
      expectOk(await load.run({ method: 'GET', path, headers: { accept: 'application/json' }, expect: 200, count: 20, connections: 1 }, 120), `list ${path}`).p50;
    const cmList = await listP50('/api/v1/namespaces/cm-list/configmaps');
    const crList = await listP50(`/apis/${group}/v1/namespaces/cr-list/widgets`);

    // The extension server serves with the API server's own serving certificate (loopback SANs); the APIService
    // skips verification, the direct clients verify it with the API server's CA.
    backend = await startBackend(readFileSync(join(dataDir, 'serving.crt'), 'utf8'), readFileSync(join(dataDir, 'serving.key'), 'utf8'));
    const port = (backend.address() as AddressInfo).port;
    await ok(setup, 'POST', '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ext' }, spec: { ports: [{ name: 'https', port: 443 }] } });
    await ok(setup, 'POST', '/api/v1/namespaces/default/endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'ext' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }] });
    await ok(setup, 'POST', `/apis/${names.group('apiregistration')}/v1/apiservices`, {
      apiVersion: `${names.group('apiregistration')}/v1`, kind: 'APIService', metadata: { name: 'v1.ext.bench.example.com' },
      spec: { group: 'ext.bench.example.com', version: 'v1', service: { namespace: 'default', name: 'ext', port: 443 }, insecureSkipTLSVerify: true, groupPriorityMinimum: 100, versionPriority: 10 },
    });
    const thingPath = '/apis/ext.bench.example.com/v1/namespaces/default/things/t';
    for (let i = 0; ; i++) {
      const r = await setup.raw({ method: 'GET', path: thingPath, headers: json });
      if (r.ok && r.value.status === 200) break;
      if (i > 600) throw new Error('the APIService did not become available');
      await sleep(100);
    }
    const directLoad = await startLoadGenerator({ ...targetOf(conn.value), port }, { connections: clients });
    generators.push(directLoad);
    const get: LoadPlan = { method: 'GET', path: thingPath, headers: json, expect: 200 };
    const configMapGet: LoadPlan = { method: 'GET', path: '/api/v1/namespaces/cm-list/configmaps/i-0', headers: json, expect: 200 };
    await directLoad.run(get, warm);
    await load.run(get, warm);
    // The extension server runs in this process: its CPU time is this process's over the direct and proxied rounds.
    const [directGets, proxiedGets, localGets] = await interleavedWithCpu([
      { run: (s: number) => directLoad.run(get, s), pids: [process.pid] },
      { run: (s: number) => load.run(get, s), pids: [api.child.pid] },
      { run: (s: number) => load.run(configMapGet, s), pids: [api.child.pid] },
    ], (p) => p.pids, seconds, (p, _round, s) => p.run(s)) as [CpuFigures, CpuFigures, CpuFigures];
    const backendPerProxied = await withCpu([process.pid], () => load.run({ ...get, count: 2000 }, 60));

    const row = (label: string, value: string, baseLabel: string, base: string, ratio: number, goal: number) =>
      `${label.padEnd(28)}${value.padStart(10)}   ${baseLabel.padEnd(24)}${base.padStart(10)}   ratio ${fmt(ratio, 3)} (goal ≥ ${goal})`;
    return [
      `extending the API (${clients} HTTPS connections, ${seconds}s per phase after ${warm}s of warm-up; the extension server runs in the benchmark's process):`,
      row('custom object creates/s', fmt(crCreates.perSecond), 'ConfigMap creates/s', fmt(cmCreates.perSecond), crCreates.perSecond / cmCreates.perSecond, 0.8),
      row(`custom list(${items}) p50 ms`, fmt(crList, 1), `ConfigMap list(${items}) ms`, fmt(cmList, 1), cmList / crList, 0.8),
      row('proxied GET/s (APIService)', fmt(proxiedGets.perSecond), 'direct GET/s', fmt(directGets.perSecond), proxiedGets.perSecond / directGets.perSecond, 0.7),
      `  cpu µs per GET: API server ${fmt(proxiedGets.serverMicrosPerRequest)} proxied, ${fmt(localGets.serverMicrosPerRequest)} for a ConfigMap it stores; `
        + `extension server ${fmt(directGets.serverMicrosPerRequest)} direct, ${fmt(backendPerProxied.cpuMicros / backendPerProxied.result.ok)} proxied`,
      `errors: creates ${cmCreates.errors}/${crCreates.errors}, gets ${directGets.errors}/${proxiedGets.errors}/${localGets.errors}`,
    ];
  } finally {
    await Promise.all(generators.map((g) => g.close()));
    for (const c of open) c.close();
    if (backend !== undefined) {
      backend.closeAllConnections();
      backend.close();
    }
    await api?.stop();
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { seconds: { type: 'string' }, clients: { type: 'string' }, items: { type: 'string' } } });
  process.stdout.write(`${(await extensionsBench(Number(values.seconds ?? '3'), Number(values.clients ?? '64'), Number(values.items ?? '3000'))).join('\n')}\n`);
}
