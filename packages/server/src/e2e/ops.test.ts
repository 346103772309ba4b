/**
 * Running the server as kube-apiserver is run, end to end on real processes: the objects it creates at start (the
 * `kubernetes` Service with its Endpoints and EndpointSlice, the system PriorityClasses, the identity Lease) and
 * ComponentStatus, across a restart on SQLite; the Service recreated after a delete; the health endpoints' names
 * and texts; Cache-Control; the logging formats, the request log at -v=3 and that no credential or Secret data
 * reaches any log line; kubectl's view of it (skipped without kubectl).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { createClient } from '@svc-apiserver/client';
import { kubectlsOrSkip, runKubectl, succeeded } from '@svc-apiserver/testing/kubectl';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { call, eventually } from './http.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

const identityLabel = 'apiserver.svc.io/identity=svc-apiserver';

/** What a client finds of the bootstrap objects. */
async function bootstrapObjects(s: ServerProcess) {
  const get = async (path: string) => {
    const r = await call(s.client, 'GET', path);
    assert.equal(r.status, 200, `${path}: ${r.text}`);
    return r.body as KubeObject;
  };
  return {
    service: await get('/api/v1/namespaces/default/services/kubernetes'),
    endpoints: await get('/api/v1/namespaces/default/endpoints/kubernetes'),
    slice: await get('/apis/discovery.svc.io/v1/namespaces/default/endpointslices/kubernetes'),
    priorityClasses: (await get('/apis/scheduling.svc.io/v1/priorityclasses')) as unknown as { items: KubeObject[] },
    leases: (await get(`/apis/coordination.svc.io/v1/namespaces/svc-system/leases?labelSelector=${encodeURIComponent(identityLabel)}`)) as unknown as { items: KubeObject[] },
  };
}

describe('bootstrap objects on SQLite, across a restart', { timeout: 120_000 }, () => {
  const dirs = tempDir({ after }, 'ops-data-');
  let server: ServerProcess | undefined;
  after(async () => {
    await server?.stop();
  });

  test('present after start and after a restart; the Service follows the new port; a deleted Service comes back', async () => {
    const dataDir = join(dirs, 'data');
    server = await startServerProcess({ dataDir, keepDataDir: true });
    const first = await bootstrapObjects(server);
    const spec = first.service['spec'] as Record<string, unknown>;
    assert.equal(spec['clusterIP'], '10.0.0.1', 'the first address of the default service range');
    assert.deepEqual(spec['ports'], [{ name: 'https', protocol: 'TCP', port: 443, targetPort: server.port }]);
    assert.deepEqual(first.endpoints['subsets'], [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: server.port, protocol: 'TCP' }] }]);
    assert.deepEqual(first.slice['endpoints'], [{ addresses: ['127.0.0.1'], conditions: { ready: true } }]);
    assert.deepEqual(first.priorityClasses.items.map((pc) => [pc.metadata?.name, pc['value']]),
      [['system-cluster-critical', 2_000_000_000], ['system-node-critical', 2_000_001_000]]);
    assert.equal(first.leases.items.length, 1);
    const lease = first.leases.items[0]!;
    assert.match(lease.metadata?.name ?? '', /^apiserver-[a-z2-7]{26}$/);
    assert.equal((lease['spec'] as { leaseDurationSeconds: number }).leaseDurationSeconds, 3600);

    // ComponentStatus: the store probed for real, the controller and scheduler ports answered as kube does.
    const cs = await call(server.client, 'GET', '/api/v1/componentstatuses');
    assert.equal(cs.status, 200);
    assert.match(String(cs.headers['warning']), /299 - "v1 ComponentStatus is deprecated in v1.19\+"/);
    assert.deepEqual((cs.body.items as KubeObject[]).map((c) => c.metadata?.name), ['controller-manager', 'etcd-0', 'scheduler']);
    const etcd = await call(server.client, 'GET', '/api/v1/componentstatuses/etcd-0');
    assert.deepEqual(etcd.body['conditions'], [{ type: 'Healthy', status: 'True', message: 'ok' }]);
    const scheduler = (cs.body.items as KubeObject[]).find((c) => c.metadata?.name === 'scheduler')!;
    assert.deepEqual((scheduler['conditions'] as { status: string }[])[0]!.status, 'False');
    assert.equal((await call(server.client, 'GET', '/api/v1/componentstatuses/nope')).status, 404);
    assert.equal((await call(server.client, 'GET', '/api/v1/componentstatuses?fieldSelector=metadata.name%3Detcd-0')).body.items.length, 1);
    assert.equal((await call(server.client, 'DELETE', '/api/v1/componentstatuses/etcd-0')).status, 405);

    await server.stop();
    server = await startServerProcess({ dataDir, keepDataDir: true });
    const second = await bootstrapObjects(server);
    assert.equal(second.service.metadata?.uid, first.service.metadata?.uid, 'the same Service, kept');
    assert.deepEqual((second.service['spec'] as Record<string, unknown>)['ports'], [{ name: 'https', protocol: 'TCP', port: 443, targetPort: server.port }],
      'its target port follows the port this start serves on');
    assert.deepEqual(second.endpoints['subsets'], [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: server.port, protocol: 'TCP' }] }]);
    assert.deepEqual(second.slice['ports'], [{ name: 'https', port: server.port, protocol: 'TCP' }]);
    assert.deepEqual(second.priorityClasses.items.map((pc) => pc.metadata?.uid), first.priorityClasses.items.map((pc) => pc.metadata?.uid));
    assert.deepEqual(second.leases.items.map((l) => l.metadata?.name), [lease.metadata?.name], 'the host keeps its identity');

    assert.equal((await call(server.client, 'DELETE', '/api/v1/namespaces/default/services/kubernetes')).status, 200);
    assert.ok(await eventually(async () => (await call(server!.client, 'GET', '/api/v1/namespaces/default/services/kubernetes')).status === 200, 25_000),
      'the Service is back within a reconcile interval');
    const back = await call(server.client, 'GET', '/api/v1/namespaces/default/services/kubernetes');
    assert.equal(back.body.spec.clusterIP, '10.0.0.1');
    assert.equal((await call(server.client, 'DELETE', '/apis/scheduling.svc.io/v1/priorityclasses/system-node-critical')).status, 403);
  });
});

describe('health endpoints and response headers as kube-apiserver\'s', () => {
  let server: ServerProcess;
  before(async () => {
    server = await startServerProcess();
  });
  after(async () => {
    await server?.stop();
  });

  test('/readyz, /livez, /healthz: kube\'s names in kube\'s order, verbose, exclude, one check', async () => {
    const readyz = await call(server.anonymous, 'GET', '/readyz?verbose');
    assert.equal(readyz.status, 200);
    assert.equal(readyz.text, [
      '[+]ping ok', '[+]log ok', '[+]etcd ok', '[+]etcd-readiness ok', '[+]informer-sync ok',
      '[+]poststarthook/start-apiextensions-controllers ok', '[+]poststarthook/crd-informer-synced ok',
      '[+]poststarthook/start-system-namespaces-controller ok', '[+]poststarthook/bootstrap-controller ok',
      '[+]poststarthook/rbac/bootstrap-roles ok', '[+]poststarthook/scheduling/bootstrap-system-priority-classes ok',
      '[+]poststarthook/priority-and-fairness-config-producer ok', '[+]poststarthook/start-kube-apiserver-identity-lease-controller ok',
      '[+]poststarthook/start-deprecated-kube-apiserver-identity-lease-garbage-collector ok',
      '[+]poststarthook/start-kube-apiserver-identity-lease-garbage-collector ok',
      '[+]poststarthook/apiservice-status-available-controller ok', '[+]poststarthook/kube-apiserver-autoregistration ok',
      '[+]shutdown ok', 'readyz check passed', '',
    ].join('\n'));
    const livez = await call(server.anonymous, 'GET', '/livez?verbose');
    assert.doesNotMatch(livez.text, /\](etcd-readiness|informer-sync|shutdown) /, 'readyz-only checks');
    assert.match(livez.text, /^\[\+\]ping ok\n\[\+\]log ok\n\[\+\]etcd ok\n\[\+\]poststarthook\/start-apiextensions-controllers ok\n/);
    const healthz = await call(server.anonymous, 'GET', '/healthz?verbose');
    assert.equal(healthz.text.replace('healthz check', 'livez check'), livez.text);
    assert.equal((await call(server.anonymous, 'GET', '/readyz')).text, 'ok');
    // One check by name is not public (system:public-info-viewer grants the three endpoints only), as in kube.
    assert.equal((await call(server.anonymous, 'GET', '/livez/etcd')).status, 403);
    assert.equal((await call(server.client, 'GET', '/livez/etcd')).text, 'ok');
    assert.equal((await call(server.client, 'GET', '/readyz/poststarthook/bootstrap-controller')).text, 'ok');
    const excluded = await call(server.anonymous, 'GET', '/readyz?verbose&exclude=etcd&exclude=nope');
    assert.match(excluded.text, /\n\[\+\]etcd excluded: ok\n/);
    assert.match(excluded.text, /\nwarn: some health checks cannot be excluded: no matches for "nope"\nreadyz check passed\n$/);
    assert.equal((await call(server.client, 'GET', '/healthz/nope')).status, 404);
  });

  test('Cache-Control: no-cache, private on objects, lists, health, discovery and refusals', async () => {
    for (const [client, path, code] of [
      [server.client, '/api/v1/namespaces/default/services/kubernetes', 200], [server.client, '/api/v1/namespaces', 200],
      [server.anonymous, '/livez', 200], [server.client, '/apis', 200], [server.anonymous, '/api/v1/namespaces', 403],
      [server.client, '/api/v1/namespaces/default/configmaps/missing', 404],
    ] as const) {
      const r = await call(client, 'GET', path);
      assert.equal(r.status, code, path);
      assert.equal(r.headers['cache-control'], 'no-cache, private', path);
    }
  });
});

describe('logs: formats, the request log at -v=3, no credential or Secret data', { timeout: 120_000 }, () => {
  const dir = tempDir({ after }, 'ops-logs-');
  const token = 'log-test-token-9f8e7d6c5b4a';
  const wrongToken = 'wrong-token-0a1b2c3d4e5f';
  const secretValue = 'hunter2-secret-value-77';
  const stringDataValue = 'p4ssw0rd-string-data-88';

  test('json at -v=3: every line is component-base JSON, requests are logged with kube\'s fields, nothing secret anywhere', async () => {
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(tokens, `${token},logger,uid-logger,"system:masters"\n`);
    const server = await startServerProcess({ extraArgs: ['--logging-format=json', '-v=3', `--token-auth-file=${tokens}`] });
    let output = '';
    try {
      const conn = { server: server.url, ca: server.admin.ca!, namespace: 'default' };
      const user = createClient({ ...conn, token });
      const created = await call(user, 'POST', '/api/v1/namespaces/default/secrets', {
        apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds' },
        data: { password: Buffer.from(secretValue).toString('base64') }, stringData: { other: stringDataValue },
      }, { 'user-agent': 'ops-log-test/1.0' });
      assert.equal(created.status, 201, created.text);
      assert.equal((await call(user, 'GET', '/api/v1/namespaces/default/secrets/creds')).status, 200);
      // An invalid Secret (its data echoed nowhere) and a refused credential.
      assert.equal((await call(user, 'POST', '/api/v1/namespaces/default/secrets', {
        apiVersion: 'v1', kind: 'Secret', metadata: { name: 'Bad_Name' }, data: { password: Buffer.from(secretValue).toString('base64') },
      })).status, 422);
      assert.equal((await call(createClient({ ...conn, token: wrongToken }), 'GET', '/api/v1/namespaces')).status, 401);
      user.close();
      const auditId = String(created.headers['audit-id']);
      assert.ok(await eventually(async () => server.output().includes(auditId), 10_000), 'the request line is written');
    } finally {
      await server.stop();
      output = server.output();
    }
    const lines = output.split('\n').filter((l) => l !== '' && !l.startsWith('svc-apiserver: '));
    assert.ok(lines.length > 0);
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const r of records) {
      assert.equal(typeof r['ts'], 'number');
      assert.match(String(r['caller']), /^[\w.-]+\/[\w.-]+\.js:\d+$/);
      assert.equal(typeof r['msg'], 'string');
    }
    const http = records.filter((r) => r['msg'] === 'HTTP');
    const create = http.find((r) => r['verb'] === 'POST' && r['URI'] === '/api/v1/namespaces/default/secrets' && r['resp'] === 201);
    assert.ok(create, JSON.stringify(http.slice(0, 5)));
    assert.equal(create['v'], 3);
    assert.equal(create['userAgent'], 'ops-log-test/1.0');
    assert.match(String(create['audit-ID']), /^[0-9a-f-]{36}$/);
    assert.match(String(create['latency']), /^\d+(\.\d+)?(ns|µs|ms|s)$/);
    assert.equal(create['srcIP'], '127.0.0.1');
    assert.ok(http.some((r) => r['verb'] === 'LIST' && r['URI'] === '/api/v1/namespaces' && r['resp'] === 401), 'refused requests are logged too; a collection GET is a LIST');
    for (const needle of [token, wrongToken, secretValue, stringDataValue, Buffer.from(secretValue).toString('base64'), Buffer.from(stringDataValue).toString('base64')]) {
      assert.ok(!output.includes(needle), `the log holds ${needle}`);
    }
  });

  test('text at -v=3: klog\'s header and the HTTP line; at the default level no request is logged', async () => {
    const verbose = await startServerProcess({ extraArgs: ['-v=3'] });
    let text = '';
    try {
      assert.equal((await call(verbose.client, 'GET', '/version')).status, 200);
      assert.ok(await eventually(async () => /"HTTP" verb="GET" URI="\/version"/.test(verbose.output()), 10_000));
    } finally {
      await verbose.stop();
      text = verbose.output();
    }
    assert.match(text, /^I\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ http-log\.js:\d+\] "HTTP" verb="GET" URI="\/version" latency="[^"]+" userAgent="[^"]*" audit-ID="[0-9a-f-]{36}" srcIP="127\.0\.0\.1" resp=200$/m);
    const quiet = await startServerProcess();
    try {
      assert.equal((await call(quiet.client, 'GET', '/version')).status, 200);
    } finally {
      await quiet.stop();
    }
    assert.doesNotMatch(quiet.output(), /"HTTP"/);
    assert.match(quiet.output(), /^svc-apiserver: serving on https:\/\/127\.0\.0\.1:\d+$/m, 'the startup lines stay');
  });
});

const kubectls = kubectlsOrSkip('kubectl');
describe('kubectl sees what kube-apiserver shows', () => {
  const home = tempDir({ after }, 'ops-kubectl-');
  let server: ServerProcess | undefined;
  before(async () => {
    if (kubectls.length > 0) server = await startServerProcess({ flavour: 'k8s' });
  });
  after(async () => {
    await server?.stop();
  });
  for (const bin of kubectls) {
    test(`${bin.label}: get svc -A, get cs, get priorityclasses`, async () => {
      const k = (...args: string[]) => runKubectl(bin, server!.kubeconfigPath, join(home, bin.label), args);
      const services = succeeded(await k('get', 'svc', '-A'), 'get svc -A');
      assert.match(services, /^default\s+kubernetes\s+ClusterIP\s+10\.0\.0\.1\s+<none>\s+443\/TCP\s+/m);
      const cs = await k('get', 'cs');
      assert.equal(cs.code, 0, cs.stderr);
      assert.match(cs.stderr, /Warning: v1 ComponentStatus is deprecated in v1\.19\+/);
      assert.match(cs.stdout, /^etcd-0\s+Healthy\s+ok/m);
      assert.match(cs.stdout, /^scheduler\s+Unhealthy\s+Get "https:\/\/127\.0\.0\.1:10259\/healthz": dial tcp 127\.0\.0\.1:10259: connect: connection refused/m);
      const pcs = succeeded(await k('get', 'priorityclasses'), 'get priorityclasses');
      assert.match(pcs, /^system-node-critical\s+2000001000\s+false\s/m);
      const leases = succeeded(await k('get', 'leases', '-n', 'kube-system', '-l', 'apiserver.kubernetes.io/identity=kube-apiserver', '-o', 'name'), 'get leases');
      assert.match(leases, /^lease\.coordination\.k8s\.io\/apiserver-[a-z2-7]{26}$/m);
    });
  }
});
