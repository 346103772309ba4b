import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:http2';
import { join } from 'node:path';
import { createClient, type RestClient } from '@svc-apiserver/client';
import { defaultFeatureGates } from '../feature-gates.js';
import { startServer, type RunningServer } from '../server.js';
import { call, eventually } from '../e2e/http.js';
import { h2get, slowCreate } from '../testing/http2-requests.js';
import { startApfTestServer, type ApfTestServer } from '../testing/apf-test-server.js';

let apf: ApfTestServer;
let dir: string;
let server: RunningServer;
let client: RestClient;
const fc = '/apis/flowcontrol.apiserver.svc.io/v1beta3';

before(async () => {
  // Twenty seats in all: global-default's nominal limit is 2 (ceil(20 × 20 / 245)), 1 of them lendable; idle, the
  // adjustment at start gives it 2. No later adjustment changes that here, so a flood meets exactly 2 seats.
  apf = await startApfTestServer({ borrowingAdjustmentPeriodMs: 3_600_000 });
  ({ server, client, dir } = apf);
});

after(() => apf.close());

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

test('flow control: a flood gets 429 at once, with Retry-After and a Status, while exempt users and /livez are served', async () => {
  await apf.bindClusterAdmin('flooder');
  const admin = connect(server.url, { ca: server.ca, cert: server.adminCert, key: server.adminKey });
  const anonymous = connect(server.url, { ca: server.ca });
  try {
    const idle = await h2get(admin, '/api/v1/namespaces/default/configmaps');
    // One flow: two seats (global-default's), then its hand of 6 queues of 50; the rest is rejected at once.
    const flood = Array.from({ length: 450 }, (_, i) => slowCreate(admin, `flood-${i}`, { 'impersonate-user': 'flooder' }));
    let answered = 0;
    for (const f of flood) void f.answer.then(() => answered++);
    // Two seats and 6 × 50 queue places: 148 are refused, all while the seats are still held.
    assert.ok(await eventually(async () => answered >= 148, 20_000, 10), `the excess is answered while the seats are held (${answered} answered)`);
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
    assert.deepEqual([rejected.length, created.length], [148, 302], 'two executing, 300 queued, the rest refused');
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
