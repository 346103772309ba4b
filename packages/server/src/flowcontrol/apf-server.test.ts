import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type ClientHttp2Session } from 'node:http2';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type RestClient } from '@svc-apiserver/client';
import { defaultFeatureGates } from '../feature-gates.js';
import { startServer, type RunningServer } from '../server.js';
import { call, eventually } from '../e2e/http.js';

let dir: string;
let server: RunningServer;
let client: RestClient;
const fc = '/apis/flowcontrol.apiserver.svc.io/v1beta3';

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'apf-server-'));
  // Two seats in all: global-default gets one (ceil(2 × 20 / 245)), so a flood is easy to make.
  server = await startServer({ dataDir: dir, securePort: 0, storage: 'memory', log: () => {}, maxRequestsInFlight: 1, maxMutatingRequestsInFlight: 1 });
  await server.ready();
  client = createClient({ server: server.url, ca: Buffer.from(server.ca), cert: Buffer.from(server.adminCert), key: Buffer.from(server.adminKey), namespace: 'default' });
});

after(async () => {
  client.close();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

test('flow control: the mandatory and suggested objects exist at start, auto-updated, their FlowSchemas not dangling', async () => {
  const fs = await call(client, 'GET', `${fc}/flowschemas`);
  const pl = await call(client, 'GET', `${fc}/prioritylevelconfigurations`);
  assert.deepEqual(fs.body.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort(), [
    'catch-all', 'endpoint-controller', 'exempt', 'global-default', 'kube-controller-manager', 'kube-scheduler', 'kube-system-service-accounts',
    'probes', 'service-accounts', 'system-leader-election', 'system-node-high', 'system-nodes', 'workload-leader-election',
  ]);
  assert.deepEqual(pl.body.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort(), [
    'catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low',
  ]);
  for (const o of [...fs.body.items, ...pl.body.items]) assert.equal(o.metadata.annotations['apf.svc.io/autoupdate-spec'], 'true');
  assert.ok(await eventually(async () => {
    const items = (await call(client, 'GET', `${fc}/flowschemas`)).body.items as { status?: { conditions?: { type: string; status: string; reason: string }[] } }[];
    return items.every((i) => i.status?.conditions?.some((c) => c.type === 'Dangling' && c.status === 'False' && c.reason === 'Found'));
  }, 10_000), 'Dangling=False on every FlowSchema');
});

test('flow control: responses name the FlowSchema and priority level by UID', async () => {
  const uid = async (path: string): Promise<string> => (await call(client, 'GET', path)).body.metadata.uid as string;
  const exemptFs = await uid(`${fc}/flowschemas/exempt`);
  const exemptPl = await uid(`${fc}/prioritylevelconfigurations/exempt`);
  assert.ok(await eventually(async () => (await call(client, 'GET', '/api/v1/namespaces')).headers['x-kubernetes-pf-flowschema-uid'] === exemptFs, 5000));
  const r = await call(client, 'GET', '/api/v1/namespaces');
  assert.equal(r.headers['x-kubernetes-pf-prioritylevel-uid'], exemptPl);
  const asUser = await call(client, 'GET', '/api/v1/namespaces', undefined, { 'Impersonate-User': 'jane' });
  assert.equal(asUser.headers['x-kubernetes-pf-flowschema-uid'], await uid(`${fc}/flowschemas/global-default`));
  assert.equal(asUser.headers['x-kubernetes-pf-prioritylevel-uid'], await uid(`${fc}/prioritylevelconfigurations/global-default`));
});

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  readonly ms: number;
}

function h2get(session: ClientHttp2Session, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = session.request({ ':path': path, accept: 'application/json', ...headers });
    let body = '';
    let head: Record<string, string | string[] | undefined> = {};
    req.on('response', (h) => (head = h as Record<string, string | string[] | undefined>));
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => resolve({ status: Number(head[':status']), headers: head, body, ms: performance.now() - started }));
    req.on('error', reject);
    req.end();
  });
}

/** A create whose body comes only when `finish` is called: it holds its seat until then, as a slow client does. */
function slowCreate(session: ClientHttp2Session, name: string): { answer: Promise<Answer>; finish(): void } {
  const body = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name } });
  const started = performance.now();
  const req = session.request({
    ':method': 'POST', ':path': '/api/v1/namespaces/default/configmaps', accept: 'application/json',
    'content-type': 'application/json', 'content-length': String(body.length), 'impersonate-user': 'flooder',
  });
  const answer = new Promise<Answer>((resolve) => {
    let text = '';
    let head: Record<string, string | string[] | undefined> = {};
    let ms = 0;
    req.on('response', (h) => {
      head = h as Record<string, string | string[] | undefined>;
      ms = performance.now() - started;
    });
    req.setEncoding('utf8');
    req.on('data', (c: string) => (text += c));
    const done = (): void => resolve({ status: Number(head[':status'] ?? 0), headers: head, body: text, ms });
    req.on('end', done);
    req.on('error', done);
  });
  req.write(body.slice(0, 10));
  return { answer, finish: () => req.end(body.slice(10)) };
}

test('flow control: a flood gets 429 at once, with Retry-After and a Status, while exempt users and /livez are served', async () => {
  const rbac = 'rbac.authorization.svc.io';
  const bound = await call(client, 'POST', `/apis/${rbac}/v1/clusterrolebindings`, {
    apiVersion: `${rbac}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'flooder' },
    roleRef: { apiGroup: rbac, kind: 'ClusterRole', name: 'cluster-admin' }, subjects: [{ apiGroup: rbac, kind: 'User', name: 'flooder' }],
  });
  assert.equal(bound.status, 201, bound.text);
  assert.ok(await eventually(async () => (await call(client, 'GET', '/api/v1/namespaces/default/configmaps', undefined, { 'Impersonate-User': 'flooder' })).status === 200));
  const admin = connect(server.url, { ca: server.ca, cert: server.adminCert, key: server.adminKey });
  const anonymous = connect(server.url, { ca: server.ca });
  try {
    const idle = await h2get(admin, '/api/v1/namespaces/default/configmaps');
    // One flow: one seat (global-default's), then its hand of 6 queues of 50; the rest is rejected at once.
    const flood = Array.from({ length: 450 }, (_, i) => slowCreate(admin, `flood-${i}`));
    let answered = 0;
    for (const f of flood) void f.answer.then(() => answered++);
    // One seat and 6 × 50 queue places: 149 are refused, all while the seat is still held.
    assert.ok(await eventually(async () => answered >= 149, 20_000, 10), `the excess is answered while the seat is held (${answered} answered)`);
    const exempt = await h2get(admin, '/api/v1/namespaces/default/configmaps');
    const livez = await h2get(anonymous, '/livez');
    assert.equal(exempt.status, 200, exempt.body);
    assert.equal(idle.status, 200);
    assert.equal(livez.status, 200, livez.body);
    for (const f of flood) f.finish();
    const answers = await Promise.all(flood.map((f) => f.answer));
    const rejected = answers.filter((a) => a.status === 429);
    const created = answers.filter((a) => a.status === 201);
    assert.equal(rejected.length + created.length, 450, JSON.stringify(answers.filter((a) => a.status !== 429 && a.status !== 201).slice(0, 2)));
    assert.deepEqual([rejected.length, created.length], [149, 301], 'one executing, 300 queued, the rest refused');
    const first = rejected[0]!;
    assert.equal(first.headers['retry-after'], '1');
    assert.deepEqual(JSON.parse(first.body), {
      kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Too many requests, please try again later.',
      reason: 'TooManyRequests', details: { retryAfterSeconds: 1 }, code: 429,
    });
    assert.ok(first.headers['x-kubernetes-pf-flowschema-uid'], 'a rejection names its FlowSchema too');
  } finally {
    admin.close();
    anonymous.close();
  }
});

test('flow control: with the APIPriorityAndFairness gate off, nothing is classified; with it on, the limits must give seats', async (t) => {
  const off = await startServer({
    dataDir: join(dir, 'off'), securePort: 0, storage: 'memory', log: () => {},
    featureGates: { ...defaultFeatureGates, APIPriorityAndFairness: false },
  });
  t.after(() => off.close());
  const c = createClient({ server: off.url, ca: Buffer.from(off.ca), cert: Buffer.from(off.adminCert), key: Buffer.from(off.adminKey), namespace: 'default' });
  t.after(() => c.close());
  const r = await call(c, 'GET', '/api/v1/namespaces');
  assert.equal(r.status, 200);
  assert.equal(r.headers['x-kubernetes-pf-flowschema-uid'], undefined);
  assert.equal((await call(c, 'GET', `${fc}/flowschemas`)).body.items.length, 0, 'no configuration is produced');
  await assert.rejects(startServer({ dataDir: join(dir, 'none'), securePort: 0, storage: 'memory', log: () => {}, maxRequestsInFlight: 0, maxMutatingRequestsInFlight: 0 }),
    /--max-requests-inflight=0 and --max-mutating-requests-inflight=0 must sum to a positive value/, 'flow control needs seats');
});
