/**
 * The event loop under the largest bodies: one request at a time, each the largest of its kind the server admits
 * (a ConfigMap of 100,000 keys, near its 1 MiB data limit, created by POST, replaced by PUT, merge-patched, written
 * as YAML and server-side applied three times; a JSON patch of 10,000 operations; a strategic merge patch of 20,000
 * list items into a Deployment's env; a custom object of nearly the 3 MiB body limit), while a probe asks `/livez` back to back
 * on a kept HTTP/1.1 connection. The probe's slowest answer during a request is how long the server held its
 * event loop at a stretch; it is printed beside the same probe's p99 on the idle server, measured in the same run.
 * The server also notes, from inside (loop-monitor.ts), the longest turn of its event loop during the request, in
 * wall time and in the CPU time it used: on a machine busy with other work the wall figures grow with that load,
 * the CPU figure is what the turn costs the server itself. The goal is about 100 ms at most.
 *
 * The request bodies are built before each request, and their answers are read as bytes, so this process only waits
 * while it probes.
 *
 * `node bench/dist/large-bodies.js` runs it alone.
 */
import { Agent, request } from 'node:https';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { launchServer } from '@svc-apiserver/testing/launch-server';
import { fmt, percentile, runStandalone, sleep } from './support.js';

const token = 'bench-large-bodies';

function restoreEnv(name: string, value: string | undefined): void {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
const namespace = 'bench-large';
const crdGroup = 'large.bench.example.com';

interface Answer {
  readonly status: number;
  readonly ms: number;
  readonly body: string;
}

interface Scenario {
  readonly label: string;
  readonly method: string;
  readonly path: string;
  readonly contentType: string;
  readonly body: () => string;
  readonly expect: readonly number[];
}

const keys = (n: number, value = ''): Record<string, string> => {
  const data: Record<string, string> = {};
  for (let i = 0; i < n; i++) data[`k${i}`] = value;
  return data;
};
const configMap = (name: string, data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace }, data });

/** The scenarios, in order (later ones read what earlier ones wrote). */
function scenarios(): Scenario[] {
  const cms = `/api/v1/namespaces/${namespace}/configmaps`;
  const applyType = 'application/apply-patch+yaml';
  const env = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ name: `E${from + i}`, value: 'v' }));
  return [
    { label: 'apply, creating (100,000 keys)', method: 'PATCH', path: `${cms}/applied?fieldManager=bench`, contentType: applyType, body: () => JSON.stringify(configMap('applied', keys(100_000))), expect: [201] },
    { label: 'apply again, same keys', method: 'PATCH', path: `${cms}/applied?fieldManager=bench`, contentType: applyType, body: () => JSON.stringify(configMap('applied', keys(100_000))), expect: [200] },
    { label: 'apply again, every value changed', method: 'PATCH', path: `${cms}/applied?fieldManager=bench`, contentType: applyType, body: () => JSON.stringify(configMap('applied', keys(100_000, 'x'))), expect: [200] },
    { label: 'POST (JSON, 100,000 keys)', method: 'POST', path: cms, contentType: 'application/json', body: () => JSON.stringify(configMap('posted', keys(100_000))), expect: [201] },
    { label: 'PUT (JSON, 100,000 keys)', method: 'PUT', path: `${cms}/posted`, contentType: 'application/json', body: () => JSON.stringify(configMap('posted', keys(100_000, 'y'))), expect: [200] },
    { label: 'merge patch (100,000 keys)', method: 'PATCH', path: `${cms}/posted`, contentType: 'application/merge-patch+json', body: () => JSON.stringify({ data: keys(100_000, 'z') }), expect: [200] },
    {
      label: 'JSON patch (10,000 operations)', method: 'PATCH', path: `${cms}/posted`, contentType: 'application/json-patch+json',
      body: () => JSON.stringify(Array.from({ length: 10_000 }, (_, i) => ({ op: 'replace', path: `/data/k${i}`, value: 'j' }))), expect: [200],
    },
    {
      label: 'POST (YAML, 100,000 keys)', method: 'POST', path: cms, contentType: 'application/yaml',
      body: () => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: yaml\ndata:\n${Array.from({ length: 100_000 }, (_, i) => `  k${i}: v\n`).join('')}`, expect: [201],
    },
    {
      label: 'POST Deployment (20,000 env items)', method: 'POST', path: `/apis/apps/v1/namespaces/${namespace}/deployments`, contentType: 'application/json',
      body: () => JSON.stringify({
        apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'big-env' },
        spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'busybox', env: env(0, 20_000) }] } } },
      }),
      expect: [201],
    },
    {
      label: 'strategic merge patch (20,000 env items)', method: 'PATCH', path: `/apis/apps/v1/namespaces/${namespace}/deployments/big-env`,
      contentType: 'application/strategic-merge-patch+json', body: () => JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'c', env: env(10_000, 20_000) }] } } } }), expect: [200],
    },
    {
      label: 'POST custom object (200,000 keys)', method: 'POST', path: `/apis/${crdGroup}/v1/namespaces/${namespace}/blobs`, contentType: 'application/json',
      body: () => JSON.stringify({ apiVersion: `${crdGroup}/v1`, kind: 'Blob', metadata: { name: 'big' }, spec: keys(200_000) }), expect: [201],
    },
  ];
}

/** The CRD of the custom object scenario: its spec keeps whatever it is given. */
const blobCrd = {
  apiVersion: 'apiextensions.svc.io/v1', kind: 'CustomResourceDefinition', metadata: { name: `blobs.${crdGroup}` },
  spec: {
    group: crdGroup, scope: 'Namespaced', names: { plural: 'blobs', singular: 'blob', kind: 'Blob', listKind: 'BlobList' },
    versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } } }],
  },
};

/** Runs every scenario and returns the report lines. */
export async function largeBodiesBench(): Promise<string[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-bench-large-'));
  const tokens = join(dataDir, 'bench-tokens.csv');
  writeFileSync(tokens, `${token},bench-admin,1,"system:masters"\n`);
  const loopFile = join(dataDir, 'loop-turns.txt');
  writeFileSync(loopFile, '');
  const monitor = fileURLToPath(new URL('./loop-monitor.js', import.meta.url));
  const saved = { options: process.env['NODE_OPTIONS'], file: process.env['SVC_BENCH_LOOP_FILE'] };
  process.env['NODE_OPTIONS'] = `${saved.options ?? ''} --import=${monitor}`.trim();
  process.env['SVC_BENCH_LOOP_FILE'] = loopFile;
  const target = await launchServer({ dataDir, storage: 'sqlite', extraArgs: [`--token-auth-file=${tokens}`] })
    .finally(() => {
      restoreEnv('NODE_OPTIONS', saved.options);
      restoreEnv('SVC_BENCH_LOOP_FILE', saved.file);
    });
  /** The longest turn (wall, CPU) the server noted between two times (Date.now()). */
  const longestTurn = (from: number, to: number): { wall: number; cpu: number } => {
    let wall = 0;
    let cpu = 0;
    for (const line of readFileSync(loopFile, 'utf8').split('\n')) {
      const [at, w, c] = line.split(' ').map(Number);
      if (at === undefined || w === undefined || c === undefined || !(at >= from && at <= to + 50)) continue;
      wall = Math.max(wall, w);
      cpu = Math.max(cpu, c);
    }
    return { wall, cpu };
  };
  const ca = readFileSync(join(target.dataDir, 'ca.crt'));
  const probeAgent = new Agent({ keepAlive: true, maxSockets: 1, ca });
  const bodyAgent = new Agent({ keepAlive: true, maxSockets: 1, ca });
  const send = (agent: Agent, method: string, path: string, body?: string, contentType = 'application/json'): Promise<Answer> => {
    const started = performance.now();
    return new Promise((resolve) => {
      const req = request({
        host: '127.0.0.1', port: target.port, method, path, agent,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body !== undefined ? { 'content-type': contentType } : {}) },
      }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? -1, ms: performance.now() - started, body: Buffer.concat(chunks).subarray(0, 300).toString() }));
      });
      req.on('error', (e) => resolve({ status: -1, ms: performance.now() - started, body: String(e) }));
      req.end(body);
    });
  };
  /** /livez back to back until `done` settles; the latencies. */
  const probeUntil = async (done: Promise<unknown>): Promise<number[]> => {
    let over = false;
    void done.then(() => (over = true));
    const out: number[] = [];
    while (!over) out.push((await send(probeAgent, 'GET', '/livez')).ms);
    return out;
  };
  try {
    const setup = [
      await send(bodyAgent, 'POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } })),
      await send(bodyAgent, 'POST', '/apis/apiextensions.svc.io/v1/customresourcedefinitions', JSON.stringify(blobCrd)),
    ];
    if (setup.some((a) => a.status !== 201)) throw new Error(`setup failed: ${setup.map((a) => `${a.status} ${a.body}`).join('; ')}`);
    for (let i = 0; i < 100 && (await send(bodyAgent, 'GET', `/apis/${crdGroup}/v1/blobs`)).status !== 200; i++) await sleep(100);
    const idle = (await probeUntil(sleep(2000))).sort((a, b) => a - b);
    const idleP99 = percentile(idle, 99);
    const lines = [`large bodies, one at a time, /livez probed back to back on a kept connection (goal: slowest probe ≤ ~100 ms):`,
      `  idle server: /livez p50 ${fmt(percentile(idle, 50), 2)} ms, p99 ${fmt(idleP99, 2)} ms, slowest ${fmt(idle[idle.length - 1] ?? NaN, 1)} ms (${idle.length} probes)`];
    for (const s of scenarios()) {
      const body = s.body();
      const from = Date.now();
      const answer = send(bodyAgent, s.method, s.path, body, s.contentType);
      const probes = (await probeUntil(answer)).sort((a, b) => a - b);
      const a = await answer;
      await sleep(100);
      const turn = longestTurn(from, Date.now());
      const slowest = probes[probes.length - 1] ?? NaN;
      const outcome = s.expect.includes(a.status) ? `${a.status}` : `${a.status} (expected ${s.expect.join('/')}: ${a.body.slice(0, 120)})`;
      lines.push(`  ${s.label.padEnd(42)} ${fmt(body.length / 1048576, 2)} MiB  ${outcome}  in ${fmt(a.ms).padStart(5)} ms;`
        + ` /livez slowest ${fmt(slowest).padStart(5)} ms (${fmt(slowest / idleP99, 0)} × idle p99);`
        + ` longest turn ${fmt(turn.wall).padStart(5)} ms wall, ${fmt(turn.cpu).padStart(4)} ms CPU`);
    }
    return lines;
  } finally {
    probeAgent.destroy();
    bodyAgent.destroy();
    await target.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await runStandalone(import.meta.url, () => largeBodiesBench());
