import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parse } from 'yaml';
import type { KubeObject } from '@svc-apiserver/api';
import { testRegistry } from '../testing/test-registry.js';
import { startClusterInfo } from './cluster-info.js';

const caPem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

test('cluster-info holds this server and its CA; anonymous get is granted; a moved server is rewritten', async () => {
  const t = await testRegistry(['default', 'svc-system', 'svc-public']);
  const first = startClusterInfo(t.registry, t.names, { server: 'https://127.0.0.1:1234', caPem, retryMs: 10 });
  await first.done;
  assert.equal(await first.checks[0]!.check(), undefined);
  const cm = (await t.call({ verb: 'get', resource: 'configmaps', namespace: 'svc-public', name: 'cluster-info' })).body as KubeObject & { data: Record<string, string> };
  assert.deepEqual(parse(cm.data['kubeconfig']!), {
    apiVersion: 'v1', kind: 'Config', 'current-context': '', contexts: null, users: null, preferences: {},
    clusters: [{ name: '', cluster: { server: 'https://127.0.0.1:1234', 'certificate-authority-data': Buffer.from(caPem).toString('base64') } }],
  });
  const role = (await t.call({ verb: 'get', group: 'rbac.authorization.svc.io', resource: 'roles', namespace: 'svc-public', name: 'system:bootstrap-signer-clusterinfo' })).body as { rules: unknown[] };
  assert.deepEqual(role.rules, [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['cluster-info'], verbs: ['get'] }]);
  const binding = (await t.call({ verb: 'get', group: 'rbac.authorization.svc.io', resource: 'rolebindings', namespace: 'svc-public', name: 'system:bootstrap-signer-clusterinfo' })).body as { subjects: unknown[] };
  assert.deepEqual(binding.subjects, [{ apiGroup: 'rbac.authorization.svc.io', kind: 'User', name: 'system:anonymous' }]);

  await t.call({ verb: 'update', resource: 'configmaps', namespace: 'svc-public', name: 'cluster-info', body: { ...cm, data: { ...cm.data, 'jws-kubeconfig-abcdef': 'sig' } } });
  const second = startClusterInfo(t.registry, t.names, { server: 'https://127.0.0.1:5678', caPem, retryMs: 10 });
  await second.done;
  const moved = (await t.call({ verb: 'get', resource: 'configmaps', namespace: 'svc-public', name: 'cluster-info' })).body as { data: Record<string, string> };
  assert.equal(parse(moved.data['kubeconfig']!).clusters[0].cluster.server, 'https://127.0.0.1:5678');
  assert.equal(moved.data['jws-kubeconfig-abcdef'], 'sig', 'signatures are left to the bootstrapsigner');
});

test('it waits for the public namespace', async () => {
  const t = await testRegistry(['default']);
  const hook = startClusterInfo(t.registry, t.names, { server: 'https://127.0.0.1:1', caPem, retryMs: 10 });
  try {
    await new Promise((r) => setTimeout(r, 30));
    assert.match((await hook.checks[0]!.check()) ?? '', /creating configmaps cluster-info/);
    await t.call({ verb: 'create', resource: 'namespaces', body: { metadata: { name: 'svc-public' } } });
    await hook.done;
    assert.equal(await hook.checks[0]!.check(), undefined);
  } finally {
    hook.stop();
  }
});
