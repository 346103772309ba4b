/**
 * The fuzzing harness: starts a real server (a child process on SQLite, so that a crash is seen as an exit and not
 * as the end of the test runner), prepares it (a namespace for the admin's cases, one an unprivileged token user
 * administers, 200 seeded objects nobody may change, a few objects to patch, client certificates of every
 * oddity), runs the cases with some concurrency over both protocols, samples the server's RSS, and reports: cases
 * and answers per category, violations, the peak RSS, and whether the seeded objects are exactly as they were.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { namesFor, type KubeObject } from '@svc-apiserver/api';
import { tempDir, type Cleanup } from '@svc-apiserver/testing/temp-dir';
import { resourceFixtures } from '../e2e/fixtures.js';
import { establish } from '../e2e/crd-fixtures.js';
import { call } from '../e2e/http.js';
import { startServerProcess, type ServerProcess } from '../e2e/server-process.js';
import { createCa, issueLeaf, type CertAndKey } from '../pki/certificates.js';
import { protobufCodec } from '@svc-apiserver/protobuf/codec';
import { maxNestingDepth } from '@svc-apiserver/api';
import { categories, generateCase, type Category, type FuzzCase, type FuzzWorld } from './fuzz-cases.js';
import { judge, type Violation } from './fuzz-oracle.js';
import { seededRandom } from './fuzz-random.js';
import { widgetCrd, widgetFixture } from './fuzz-extensions.js';
import { fuzzTransport, type ClientIdentity, type FuzzTransport } from './fuzz-transport.js';

/** A server prepared for fuzzing. */
export interface FuzzTarget {
  readonly server: ServerProcess;
  readonly world: FuzzWorld;
  /** The seeded objects as stored before the run (path → JSON text). */
  readonly seeded: ReadonlyMap<string, string>;
}

/** How many objects are seeded. */
export const seededObjects = 200;

const adminToken = 'fuzz-admin-token';
const userToken = 'fuzz-user-token';

/** Client certificates the TLS cases present. */
async function oddIdentities(caPem: string, caKeyPem: string): Promise<ClientIdentity[]> {
  const ca: CertAndKey = { certPem: caPem, keyPem: caKeyPem };
  const foreign = await createCa('fuzz-foreign-ca');
  const leaves = await Promise.all([
    issueLeaf(ca, { commonName: 'fuzz-admin', organizations: ['system:masters'], usage: 'client' }),
    issueLeaf(ca, { commonName: 'alice', usage: 'client' }),
    issueLeaf(ca, { commonName: 'ctl\u0001\u001f\r\nchars', organizations: ['o\u0000o', 'ключ'], usage: 'client' }),
    issueLeaf(ca, { commonName: 'x'.repeat(5000), organizations: Array.from({ length: 50 }, (_, i) => `group-${i}`), usage: 'client' }),
    issueLeaf(ca, { commonName: '', usage: 'client' }),
    issueLeaf(ca, { commonName: 'expired', usage: 'client', validDays: -1 }),
    issueLeaf(ca, { commonName: 'system:anonymous', organizations: ['system:unauthenticated'], usage: 'client' }),
    issueLeaf(ca, { commonName: 'a-server', usage: 'server', sans: ['127.0.0.1'] }),
    issueLeaf(foreign, { commonName: 'fuzz-admin', organizations: ['system:masters'], usage: 'client' }),
  ]);
  const none: ClientIdentity = {};
  return [none, ...[foreign, ...leaves].map((c): ClientIdentity => ({ certPem: c.certPem, keyPem: c.keyPem }))];
}

/**
 * Starts and prepares a server whose data directory is removed when `owner` ends; `requestTimeout` is its
 * --request-timeout (Go duration).
 */
export async function startFuzzTarget(owner: Cleanup, requestTimeout = '10s'): Promise<FuzzTarget> {
  const names = namesFor('svc');
  const dataDir = tempDir(owner, 'svc-fuzz-');
  writeFileSync(join(dataDir, 'fuzz-tokens.csv'), `${adminToken},fuzz-admin,1,"system:masters"\n${userToken},alice,2,""\n`);
  const server = await startServerProcess({
    dataDir,
    extraArgs: [`--token-auth-file=${join(dataDir, 'fuzz-tokens.csv')}`, `--request-timeout=${requestTimeout}`],
  });
  const world: FuzzWorld = {
    names,
    // The run's custom resource is one more fixture: every generic category reaches custom objects too.
    fixtures: [...resourceFixtures(names), widgetFixture()],
    namespace: 'fuzz',
    userNamespace: 'fuzz-user',
    seedNamespace: 'fuzz-seed',
    adminToken,
    userToken,
    identities: await oddIdentities(readFileSync(join(dataDir, 'ca.crt'), 'utf8'), readFileSync(join(dataDir, 'ca.key'), 'utf8')),
    protobuf: (() => {
      const codec = protobufCodec(names);
      return (o: unknown) => codec.encode(o);
    })(),
    maxBodyBytes: 3 * 1024 * 1024,
    depthLimit: maxNestingDepth,
    requestTimeoutMs: 10_000,
  };
  const must = async (method: string, path: string, body?: unknown): Promise<KubeObject> => {
    const r = await call(server.client, method, path, body);
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.text}`);
    return r.body as KubeObject;
  };
  for (const ns of [world.namespace, world.userNamespace, world.seedNamespace]) {
    await must('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  }
  const rbac = names.group('rbac.authorization');
  await must('POST', `/apis/${rbac}/v1/namespaces/${world.userNamespace}/rolebindings`, {
    apiVersion: `${rbac}/v1`, kind: 'RoleBinding', metadata: { name: 'alice-admin' },
    roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'admin' }, subjects: [{ apiGroup: rbac, kind: 'User', name: 'alice' }],
  });
  await establish(server, widgetCrd(names) as Record<string, unknown>, names);
  const namespaced = world.fixtures.filter((f) => f.namespaced);
  // Quotas and limit ranges are not seeded: admission would refuse the seeded pods they do not fit.
  const seedable = namespaced.filter((f) => f.resource !== 'resourcequotas' && f.resource !== 'limitranges');
  const seeded = new Map<string, string>();
  for (let i = 0; i < seededObjects; i++) {
    const f = seedable[i % seedable.length]!;
    const root = f.group === '' ? `/api/${f.version}` : `/apis/${f.group}/${f.version}`;
    const path = `${root}/namespaces/${world.seedNamespace}/${f.resource}`;
    const object = f.make(`seed-${i}`, world.seedNamespace);
    object.metadata = { ...object.metadata, labels: { app: 'seed', n: String(i) } };
    await must('POST', path, object);
  }
  // Read back after every controller had its say (service account tokens, defaults): that is what must not change.
  await new Promise((r) => setTimeout(r, 1000));
  for (const [path, text] of await snapshotSeed(server, world)) seeded.set(path, text);
  for (const ns of [world.namespace, world.userNamespace]) {
    for (const f of namespaced) {
      const root = f.group === '' ? `/api/${f.version}` : `/apis/${f.group}/${f.version}`;
      for (let i = 0; i < 3; i++) await call(server.client, 'POST', `${root}/namespaces/${ns}/${f.resource}`, f.make(`fz-${i}`, ns));
    }
  }
  return { server, world, seeded };
}

/** The seeded objects as stored now (path → JSON text). */
export async function snapshotSeed(server: ServerProcess, world: FuzzWorld): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of world.fixtures.filter((x) => x.namespaced)) {
    const root = f.group === '' ? `/api/${f.version}` : `/apis/${f.group}/${f.version}`;
    const r = await call(server.client, 'GET', `${root}/namespaces/${world.seedNamespace}/${f.resource}?labelSelector=app%3Dseed`);
    for (const item of (r.body?.items ?? []) as KubeObject[]) out.set(`${root}/${f.resource}/${item.metadata?.name ?? ''}`, JSON.stringify(item));
  }
  return out;
}

/** Counts of one category. */
export interface CategoryCounts {
  cases: number;
  answered: number;
  errors: number;
  unsendable: number;
  violations: number;
  statuses: Record<string, number>;
}

/** What a run found. */
export interface FuzzReport {
  readonly seed: number;
  readonly cases: number;
  readonly durationMs: number;
  readonly perCategory: Record<Category, CategoryCounts>;
  readonly violations: readonly Violation[];
  readonly crashed: boolean;
  readonly peakRssMb: number;
  readonly finalRssMb: number;
  readonly slowestMs: number;
}

/** Resident set size of a process, in MiB (0 when unknown). */
export function rssMb(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Options of a run. */
export interface FuzzRunOptions {
  readonly seed: number;
  readonly cases: number;
  readonly concurrency: number;
  /** Run only these categories (all by default). */
  readonly only?: readonly Category[];
  /** Called every `every` cases with the count done. */
  readonly progress?: (done: number) => void;
}

/** Runs the cases against a prepared server. */
export async function runFuzz(target: FuzzTarget, options: FuzzRunOptions): Promise<FuzzReport> {
  const { server, world } = target;
  const port = server.port;
  const caPem = readFileSync(join(server.dataDir, 'ca.crt'), 'utf8');
  const transport: FuzzTransport = fuzzTransport('127.0.0.1', port, caPem);
  const perCategory = Object.fromEntries(categories.map((c) => [c, { cases: 0, answered: 0, errors: 0, unsendable: 0, violations: 0, statuses: {} }])) as Record<Category, CategoryCounts>;
  const violations: Violation[] = [];
  const codec = protobufCodec(world.names);
  const decodeProtobuf = (bytes: Uint8Array): unknown => {
    const d = codec.decode(bytes);
    return d.ok ? d.value : undefined;
  };
  let crashed = false;
  let peakRss = rssMb(server.child.pid);
  let slowest = 0;
  const started = performance.now();
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, rssMb(server.child.pid));
  }, 250);
  const inFlight = new Map<number, FuzzCase>();
  void server.exited.then((e) => {
    crashed = true;
    violations.push({ kind: 'crash', index: -1, category: 'process', detail: `the server exited (code ${e.code}, signal ${e.signal}) with cases in flight: ${[...inFlight.values()].map((c) => `#${c.index} ${c.category} ${c.request.method} ${c.request.target.slice(0, 80)}`).join('; ')}\n${server.output().slice(-3000)}` });
  });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (!crashed) {
      const index = next++;
      if (index >= options.cases) return;
      const random = seededRandom(options.seed, index);
      const only = options.only === undefined ? undefined : options.only[index % options.only.length];
      const c = generateCase(world, random, index, only);
      inFlight.set(index, c);
      const outcome = await transport.send(c.request);
      inFlight.delete(index);
      const counts = perCategory[c.category];
      counts.cases++;
      if (outcome.kind === 'unsendable') counts.unsendable++;
      if (outcome.kind === 'answer') {
        counts.answered++;
        if (outcome.status >= 400) counts.errors++;
        counts.statuses[outcome.status] = (counts.statuses[outcome.status] ?? 0) + 1;
        slowest = Math.max(slowest, outcome.ms);
      }
      if (crashed) return;
      const v = judge(c, outcome, decodeProtobuf);
      if (v !== undefined) {
        counts.violations++;
        violations.push(v);
      }
      if (options.progress && (index + 1) % 1000 === 0) options.progress(index + 1);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    clearInterval(sampler);
    transport.close();
  }
  return {
    seed: options.seed,
    cases: options.cases,
    durationMs: performance.now() - started,
    perCategory,
    violations,
    crashed,
    peakRssMb: Math.round(peakRss),
    finalRssMb: Math.round(rssMb(server.child.pid)),
    slowestMs: Math.round(slowest),
  };
}
