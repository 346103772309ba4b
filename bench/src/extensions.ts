/**
 * Extending the API, measured beside what it extends in the same run on the same server (SQLite, 64 keep-alive HTTPS connections of the load generator):
 * creates of custom objects against creates of ConfigMaps, a list of 3,000 custom objects against a list of 3,000
 * ConfigMaps (goal ≥ 0.8× for both; 30 lists of each kind in alternating rounds, one client reading them one after
 * another), and GETs through the APIService proxy against the same GETs sent to the extension server directly, in
 * interleaved rounds, with the CPU time per GET of each process.
 *
 * Two extension servers, two meanings:
 * - a canned one (in this process) that answers fixed bytes at once: the ratio against it (goal ≥ 0.7×) is the
 *   whole cost of the proxy — the front server's TLS, authentication, authorization, fairness and relay — against
 *   an extension server that does nothing. Since such a server costs only some 25 µs of CPU per GET, the goal asks
 *   the proxied path to add under ~11 µs, which no API server proxy reaches; the figure shows what the front adds;
 * - a real one: a second svc-apiserver serving a custom resource and trusting the front's identity headers by
 *   request-header authentication (`--requestheader-*`), as aggregated API servers built on the API server library
 *   (metrics-server, sample-apiserver) are. Direct GETs carry its own admin client certificate, proxied ones the
 *   front's front-proxy certificate and identity headers; the ratio is what a user of an aggregated API sees.
 *   Both servers run on the servers' core, so the ratio is bounded by their CPU per GET: the extension server's
 *   direct over the front's and its own proxied, printed beside it.
 * The front's CPU per proxied GET is also printed as a ratio to its CPU per ConfigMap GET in the same rounds, which
 * the load on a shared machine moves less than either figure alone.
 * Loopback only, bounded in time.
 *
 * Standalone: `node bench/dist/extensions.js [--seconds=3] [--clients=64] [--items=3000] [--cpu-prof=<dir>]`. With
 * `--cpu-prof`, the front server runs under node's CPU profiler and, after the measured rounds, serves each kind of
 * GET alone for a phase (proxied to the real extension server, proxied to the canned one, a ConfigMap it stores,
 * then 40 lists of each kind one after another):
 * a summary of each phase follows the figures, and `<profile>.phases.json` beside the profile lets
 * `cpu-profile-summary.js` print them again with their flame graphs.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { namesFor } from '@svc-apiserver/api';
import { createClient, loadKubeconfig, type RestClient } from '@svc-apiserver/client';
import { launchServer, type LaunchedServer } from '@svc-apiserver/testing/launch-server';
import { fmt, isMain, sleep } from './support.js';
import { pinServer } from './load/cpu-pinning.js';
import { LatencyHistogram } from './load/latency-histogram.js';
import { startLoadGenerator, targetOf, type LoadGenerator, type LoadPlan, type LoadResult } from './load/load-generator.js';
import { expectOk, interleaved } from './load/phases.js';
import { processCpuMicros } from './server-cpu.js';
import { monotonicMicros, summarizeProfile } from './cpu-profile-summary.js';
import { repoRoot } from '@svc-apiserver/testing/node-child';

const names = namesFor('svc');
const json = { 'content-type': 'application/json', accept: 'application/json' };
const group = 'bench.example.com';

async function ok(client: RestClient, method: string, path: string, body?: unknown, want = [200, 201]): Promise<unknown> {
  const r = await client.raw({ method, path, headers: json, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (!r.ok || !want.includes(r.value.status)) throw new Error(`${method} ${path}: ${r.ok ? `${r.value.status} ${r.value.body.toString()}` : r.error.message}`);
  return JSON.parse(r.value.body.toString());
}

/** A namespaced CRD of `group` whose objects carry a map of strings in `data`. */
const dataCrd = (crdGroup: string, plural: string, kind: string) => ({
  apiVersion: `${names.group('apiextensions')}/v1`, kind: 'CustomResourceDefinition', metadata: { name: `${plural}.${crdGroup}` },
  spec: {
    group: crdGroup, scope: 'Namespaced', names: { plural, kind },
    versions: [{
      name: 'v1', served: true, storage: true,
      schema: { openAPIV3Schema: { type: 'object', properties: { data: { type: 'object', additionalProperties: { type: 'string' } } } } },
    }],
  },
});
const widgetCrd = dataCrd(group, 'widgets', 'Widget');
/** The group the real extension server serves (a CRD of its own, unknown to the front server). */
const realGroup = 'real.bench.example.com';
const gadgetCrd = dataCrd(realGroup, 'gadgets', 'Gadget');

/** Polls `path` until it answers 200. */
async function waitFor(client: RestClient, path: string, tries: number, failure: string): Promise<void> {
  for (let i = 0; ; i++) {
    const r = await client.raw({ method: 'GET', path, headers: json });
    if (r.ok && r.value.status === 200) return;
    if (i > tries) throw new Error(failure);
    await sleep(100);
  }
}

/**
 * Registers `v1.<apiGroup>` as served by the Service `name` in `default`, whose endpoint is 127.0.0.1:`port`. Both
 * extension servers serve with loopback certificates, so the APIService skips verification (the direct clients
 * verify theirs).
 */
async function registerApiService(client: RestClient, name: string, apiGroup: string, port: number): Promise<void> {
  await ok(client, 'POST', '/api/v1/namespaces/default/services', { apiVersion: 'v1', kind: 'Service', metadata: { name }, spec: { ports: [{ name: 'https', port: 443 }] } });
  await ok(client, 'POST', '/api/v1/namespaces/default/endpoints', { apiVersion: 'v1', kind: 'Endpoints', metadata: { name }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port }] }] });
  await ok(client, 'POST', `/apis/${names.group('apiregistration')}/v1/apiservices`, {
    apiVersion: `${names.group('apiregistration')}/v1`, kind: 'APIService', metadata: { name: `v1.${apiGroup}` },
    spec: { group: apiGroup, version: 'v1', service: { namespace: 'default', name, port: 443 }, insecureSkipTLSVerify: true, groupPriorityMinimum: 100, versionPriority: 10 },
  });
}

/** A target of {@link roundsWithCpu}: a run, and the processes whose CPU time it costs. */
interface CpuTarget {
  run(seconds: number): Promise<LoadResult>;
  readonly pids: readonly (number | undefined)[];
}

/** Requests/s of a target over its rounds, and the CPU µs per successful request of each of its processes. */
interface Measured {
  readonly perSecond: number;
  readonly errors: number;
  readonly micros: readonly number[];
}

/** The targets in interleaved rounds, each process's CPU time read around each round and kept apart. */
async function roundsWithCpu(targets: readonly CpuTarget[], seconds: number): Promise<Measured[]> {
  const cpu = targets.map((t) => ({ micros: t.pids.map(() => 0), ok: 0 }));
  const figures = await interleaved(targets, seconds, async (target, _round, s) => {
    const before = target.pids.map(processCpuMicros);
    const result = await target.run(s);
    const total = cpu[targets.indexOf(target)]!;
    target.pids.forEach((pid, i) => {
      total.micros[i]! += processCpuMicros(pid) - before[i]!;
    });
    total.ok += result.ok;
    return result;
  });
  return figures.map((f, i) => ({
    perSecond: f.perSecond, errors: f.errors, micros: cpu[i]!.micros.map((m) => (cpu[i]!.ok > 0 ? m / cpu[i]!.ok : NaN)),
  }));
}

/** A ConfigMap and a Widget with the same payload. */
const payload = { k: 'v'.repeat(64) };
const configMap = (name: string) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: payload });
const widget = (name: string) => ({ apiVersion: `${group}/v1`, kind: 'Widget', metadata: { name }, data: payload });

/**
 * The canned extension server: discovery and one object, answered at once. It offers HTTP/2 by ALPN beside
 * HTTP/1.1, as API servers do: the load generator's direct requests are HTTP/1.1 (node's HTTP/1.1 server serves
 * them), the proxy's HTTP/2.
 */
function startBackend(certPem: string, keyPem: string): Promise<Http2SecureServer> {
  const discovery = JSON.stringify({ kind: 'APIResourceList', apiVersion: 'v1', groupVersion: 'ext.bench.example.com/v1', resources: [{ name: 'things', singularName: 'thing', namespaced: true, kind: 'Thing', verbs: ['get'] }] });
  const thing = JSON.stringify({ apiVersion: 'ext.bench.example.com/v1', kind: 'Thing', metadata: { name: 't', namespace: 'default' }, spec: payload });
  const server = createSecureServer({ cert: certPem, key: keyPem, allowHTTP1: true }, (req, res) => {
    const body = req.url.startsWith('/apis/ext.bench.example.com/v1/namespaces') ? thing : discovery;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** Runs the measurements and returns the report lines. */
export async function extensionsBench(seconds: number, clients: number, items = 3000, cpuProfDir?: string): Promise<string[]> {
  const open: RestClient[] = [];
  const generators: LoadGenerator[] = [];
  let api: LaunchedServer | undefined;
  let backend: Http2SecureServer | undefined;
  let real: LaunchedServer | undefined;
  try {
    api = await launchServer({ storage: 'sqlite', ...(cpuProfDir === undefined ? {} : { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${cpuProfDir}`] }) });
    pinServer(api.child.pid);
    const dataDir = api.dataDir;
    const conn = loadKubeconfig({ path: api.kubeconfigPath });
    if (!conn.ok) throw new Error(conn.error);
    const setup = createClient(conn.value);
    open.push(setup);
    for (const ns of ['cm', 'cr', 'cm-list', 'cr-list']) await ok(setup, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await ok(setup, 'POST', `/apis/${names.group('apiextensions')}/v1/customresourcedefinitions`, widgetCrd);
    await waitFor(setup, `/apis/${group}/v1`, 200, 'the CRD was not served');
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
    // Lists one after another, as one client reads them: 30 of each kind in 15 rounds of two, the kinds alternating
    // and the first of each round alternating too, so that the machine's drift and bursts touch both alike.
    const cmListPath = '/api/v1/namespaces/cm-list/configmaps';
    const crListPath = `/apis/${group}/v1/namespaces/cr-list/widgets`;
    const listHistograms = [new LatencyHistogram(), new LatencyHistogram()];
    for (let round = 0; round < 15; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const i of order) {
        const path = [cmListPath, crListPath][i]!;
        const r = expectOk(await load.run({ method: 'GET', path, headers: { accept: 'application/json' }, expect: 200, count: 2, connections: 1 }, 120), `list ${path}`);
        listHistograms[i]!.add(r.histogram);
      }
    }
    const [cmList, crList] = listHistograms.map((h) => h.percentile(50)) as [number, number];
    const listBytes = async (path: string): Promise<number> => {
      const r = await setup.raw({ method: 'GET', path, headers: { accept: 'application/json' } });
      return r.ok ? r.value.body.length : NaN;
    };
    const [cmListBytes, crListBytes] = [await listBytes(cmListPath), await listBytes(crListPath)];

    // The canned extension server serves with the API server's own serving certificate (loopback SANs): the direct
    // clients verify it with the API server's CA.
    backend = await startBackend(readFileSync(join(dataDir, 'serving.crt'), 'utf8'), readFileSync(join(dataDir, 'serving.key'), 'utf8'));
    const port = (backend.address() as AddressInfo).port;
    await registerApiService(setup, 'ext', 'ext.bench.example.com', port);
    const thingPath = '/apis/ext.bench.example.com/v1/namespaces/default/things/t';
    await waitFor(setup, thingPath, 600, 'the APIService did not become available');

    // The real extension server: a second svc-apiserver trusting the front's front-proxy CA for identity headers,
    // serving one custom object from its watch cache.
    real = await launchServer({
      storage: 'memory',
      extraArgs: [
        `--requestheader-client-ca-file=${join(dataDir, 'front-proxy-ca.crt')}`, '--requestheader-allowed-names=front-proxy-client',
        '--requestheader-username-headers=X-Remote-User', '--requestheader-group-headers=X-Remote-Group', '--requestheader-extra-headers-prefix=X-Remote-Extra-',
      ],
    });
    pinServer(real.child.pid);
    const realConn = loadKubeconfig({ path: real.kubeconfigPath });
    if (!realConn.ok) throw new Error(realConn.error);
    const realSetup = createClient(realConn.value);
    open.push(realSetup);
    await ok(realSetup, 'POST', `/apis/${names.group('apiextensions')}/v1/customresourcedefinitions`, gadgetCrd);
    await waitFor(realSetup, `/apis/${realGroup}/v1`, 200, 'the extension server did not serve its CRD');
    await ok(realSetup, 'POST', `/apis/${realGroup}/v1/namespaces/default/gadgets`, { apiVersion: `${realGroup}/v1`, kind: 'Gadget', metadata: { name: 'g' }, data: payload });
    await registerApiService(setup, 'real', realGroup, real.port);
    const gadgetPath = `/apis/${realGroup}/v1/namespaces/default/gadgets/g`;
    await waitFor(setup, gadgetPath, 600, 'the real extension server\'s APIService did not become available');

    const directLoad = await startLoadGenerator({ ...targetOf(conn.value), port }, { connections: clients });
    generators.push(directLoad);
    const realLoad = await startLoadGenerator(targetOf(realConn.value), { connections: clients });
    generators.push(realLoad);
    const get: LoadPlan = { method: 'GET', path: thingPath, headers: json, expect: 200 };
    const gadgetGet: LoadPlan = { method: 'GET', path: gadgetPath, headers: json, expect: 200 };
    const configMapGet: LoadPlan = { method: 'GET', path: '/api/v1/namespaces/cm-list/configmaps/i-0', headers: json, expect: 200 };
    // The canned extension server runs in this process: its CPU time is this process's over the rounds.
    const front = api.child.pid;
    const targets: CpuTarget[] = [
      { run: (s) => directLoad.run(get, s), pids: [process.pid] },
      { run: (s) => load.run(get, s), pids: [front, process.pid] },
      { run: (s) => load.run(configMapGet, s), pids: [front] },
      { run: (s) => realLoad.run(gadgetGet, s), pids: [real.child.pid] },
      { run: (s) => load.run(gadgetGet, s), pids: [front, real.child.pid] },
    ];
    // Warmed up in rounds too: no connection sits idle long enough for a server to close it (node's 5 s).
    await roundsWithCpu(targets, warm);
    const [cannedDirect, cannedProxied, localGets, realDirect, realProxied] = await roundsWithCpu(targets, seconds) as [Measured, Measured, Measured, Measured, Measured];

    const row = (label: string, value: string, baseLabel: string, base: string, ratio: number, goal?: number) =>
      `${label.padEnd(28)}${value.padStart(10)}   ${baseLabel.padEnd(24)}${base.padStart(10)}   ratio ${fmt(ratio, 3)}${goal === undefined ? '' : ` (goal ≥ ${goal})`}`;
    const lines = [
      `extending the API (${clients} HTTPS connections, ${seconds}s per phase after ${warm}s of warm-up; the canned extension server runs in the benchmark's process):`,
      row('custom object creates/s', fmt(crCreates.perSecond), 'ConfigMap creates/s', fmt(cmCreates.perSecond), crCreates.perSecond / cmCreates.perSecond, 0.8),
      row(`custom list(${items}) p50 ms`, fmt(crList, 1), `ConfigMap list(${items}) ms`, fmt(cmList, 1), cmList / crList, 0.8),
      `  list bytes: custom ${fmt(crListBytes)}, ConfigMap ${fmt(cmListBytes)} (custom items carry kind and apiVersion)`,
      row('proxied GET/s (APIService)', fmt(cannedProxied.perSecond), 'direct GET/s', fmt(cannedDirect.perSecond), cannedProxied.perSecond / cannedDirect.perSecond, 0.7),
      `  cpu µs per GET: API server ${fmt(cannedProxied.micros[0]!)} proxied (${fmt(cannedProxied.micros[0]! / localGets.micros[0]!, 2)}× the `
        + `${fmt(localGets.micros[0]!)} of a ConfigMap GET it serves); extension server ${fmt(cannedDirect.micros[0]!)} direct, ${fmt(cannedProxied.micros[1]!)} proxied`,
      row('proxied GET/s (svc-apiserver)', fmt(realProxied.perSecond), 'direct GET/s', fmt(realDirect.perSecond), realProxied.perSecond / realDirect.perSecond),
      `  cpu µs per GET: front ${fmt(realProxied.micros[0]!)} proxied (${fmt(realProxied.micros[0]! / localGets.micros[0]!, 2)}× a ConfigMap GET); `
        + `extension svc-apiserver ${fmt(realDirect.micros[0]!)} direct, ${fmt(realProxied.micros[1]!)} proxied`,
      // Both servers share the servers' core: a proxied GET costs that core the front's time and the extension
      // server's, a direct one only the extension server's, which bounds the ratio by their CPU alone.
      `  bound by CPU on the servers' shared core: direct µs / (front + extension server µs proxied) = `
        + `${fmt(realDirect.micros[0]! / (realProxied.micros[0]! + realProxied.micros[1]!), 3)}`,
      `errors: creates ${cmCreates.errors}/${crCreates.errors}, gets ${cannedDirect.errors}/${cannedProxied.errors}/${localGets.errors}/${realDirect.errors}/${realProxied.errors}`,
    ];
    if (cpuProfDir === undefined) return lines;
    // Each kind of GET alone, so that the front's profile can be cut into one window per kind.
    const phases: { label: string; fromMicros: number; toMicros: number }[] = [];
    const listOf = (path: string): LoadPlan => ({ method: 'GET', path, headers: { accept: 'application/json' }, expect: 200, count: 40, connections: 1 });
    for (const [label, plan] of [
      ['proxied GET, svc-apiserver behind', gadgetGet], ['proxied GET, canned server behind', get], ['ConfigMap GET', configMapGet],
      [`ConfigMap list(${items})`, listOf(cmListPath)], [`custom list(${items})`, listOf(crListPath)],
    ] as const) {
      const fromMicros = monotonicMicros();
      const r = await load.run(plan, plan.count === undefined ? seconds : 120);
      phases.push({ label: `${label} (${r.ok} requests, ${r.errors} errors)`, fromMicros, toMicros: monotonicMicros() });
    }
    // The profile is written as the server stops.
    await api.stop();
    api = undefined;
    const profile = readdirSync(cpuProfDir).filter((f) => f.endsWith('.cpuprofile')).map((f) => join(cpuProfDir, f)).sort().at(-1);
    if (profile === undefined) return [...lines, `no CPU profile was written in ${cpuProfDir}`];
    writeFileSync(`${profile}.phases.json`, JSON.stringify(phases));
    return [...lines, `front server profile ${profile}:`, ...phases.flatMap((p) => [`${p.label}:`, ...summarizeProfile(profile, p, repoRoot, 20)])];
  } finally {
    await Promise.all(generators.map((g) => g.close()));
    for (const c of open) c.close();
    if (backend !== undefined) {
      // HTTP/2 sessions and kept-alive HTTP/1.1 connections end with the servers that hold them.
      backend.close();
    }
    await Promise.all([api?.stop(), real?.stop()]);
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { seconds: { type: 'string' }, clients: { type: 'string' }, items: { type: 'string' }, 'cpu-prof': { type: 'string' } } });
  const cpuProfDir = values['cpu-prof'] === undefined ? undefined : resolve(values['cpu-prof']);
  process.stdout.write(`${(await extensionsBench(Number(values.seconds ?? '3'), Number(values.clients ?? '64'), Number(values.items ?? '3000'), cpuProfDir)).join('\n')}\n`);
}
