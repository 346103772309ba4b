/**
 * Multi-version resources end to end: one stored object read and written through every served version
 * (autoscaling v1/v2 HorizontalPodAutoscalers, flowcontrol v1beta2/v1beta3, core v1 and events.svc.io/v1 Events),
 * in gets, lists and watches; and Service allocations surviving a restart.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, createNamespace } from './http.js';
import { serverForFile, startServerProcess } from './server-process.js';

const ns = 'conv';
const server = serverForFile({ storage: 'memory' }, ns);

const hpaV1 = `/apis/autoscaling/v1/namespaces/${ns}/horizontalpodautoscalers`;
const hpaV2 = `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`;

test('HorizontalPodAutoscaler: written in v1, read in v2; written in v2, read and updated in v1 without loss', async () => {
  const created = await call(server().client, 'POST', hpaV1, {
    apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler', metadata: { name: 'a' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, maxReplicas: 4, targetCPUUtilizationPercentage: 55 },
  });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.body.apiVersion, 'autoscaling/v1');
  assert.equal(created.body.spec.minReplicas, 1);
  const v2 = await call(server().client, 'GET', `${hpaV2}/a`);
  assert.equal(v2.body.apiVersion, 'autoscaling/v2');
  assert.deepEqual(v2.body.spec.metrics, [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 55 } } }]);
  assert.equal(v2.body.metadata.resourceVersion, created.body.metadata.resourceVersion);

  const metrics = [
    { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
    { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
  ];
  const behavior = { scaleDown: { stabilizationWindowSeconds: 60, selectPolicy: 'Min', policies: [{ type: 'Pods', value: 1, periodSeconds: 30 }] } };
  const b = await call(server().client, 'POST', hpaV2, {
    apiVersion: 'autoscaling/v2', kind: 'HorizontalPodAutoscaler', metadata: { name: 'b' },
    spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd' }, minReplicas: 2, maxReplicas: 6, metrics, behavior },
  });
  assert.equal(b.status, 201, b.text);
  const v1 = await call(server().client, 'GET', `${hpaV1}/b`);
  assert.equal(v1.body.spec.targetCPUUtilizationPercentage, 70);
  assert.equal(v1.body.spec.metrics, undefined);
  // A v1 client changes the CPU target and writes the whole object back: nothing else is lost.
  v1.body.spec.targetCPUUtilizationPercentage = 40;
  const put = await call(server().client, 'PUT', `${hpaV1}/b`, v1.body);
  assert.equal(put.status, 200, put.text);
  const back = await call(server().client, 'GET', `${hpaV2}/b`);
  assert.deepEqual(back.body.spec.metrics, [metrics[0], { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 40 } } }]);
  // What was stored (the given scale-down rules, and kube's default scale-up rules beside them) comes back whole.
  assert.deepEqual(b.body.spec.behavior.scaleDown, behavior.scaleDown);
  assert.deepEqual(back.body.spec.behavior, b.body.spec.behavior);
  assert.equal(back.body.metadata.annotations, undefined);

  const listed = await call(server().client, 'GET', hpaV1);
  assert.deepEqual(listed.body.items.map((i: { spec: { targetCPUUtilizationPercentage: number } }) => i.spec.targetCPUUtilizationPercentage), [55, 40]);
  assert.equal(listed.body.apiVersion, 'autoscaling/v1');
});

test('PriorityLevelConfiguration: assuredConcurrencyShares (v1beta2) is nominalConcurrencyShares (v1beta3)', async () => {
  const base = '/apis/flowcontrol.apiserver.svc.io';
  const created = await call(server().client, 'POST', `${base}/v1beta2/prioritylevelconfigurations`, {
    apiVersion: 'flowcontrol.apiserver.svc.io/v1beta2', kind: 'PriorityLevelConfiguration', metadata: { name: 'p' },
    spec: { type: 'Limited', limited: { assuredConcurrencyShares: 7, limitResponse: { type: 'Reject' } } },
  });
  assert.equal(created.status, 201, created.text);
  assert.match(String(created.headers['warning']), /v1beta2 PriorityLevelConfiguration is deprecated in v1\.26\+/);
  const v3 = await call(server().client, 'GET', `${base}/v1beta3/prioritylevelconfigurations/p`);
  assert.equal(v3.body.spec.limited.nominalConcurrencyShares, 7);
  assert.equal(v3.body.spec.limited.assuredConcurrencyShares, undefined);
  v3.body.spec.limited.nominalConcurrencyShares = 9;
  assert.equal((await call(server().client, 'PUT', `${base}/v1beta3/prioritylevelconfigurations/p`, v3.body)).status, 200);
  const v2 = await call(server().client, 'GET', `${base}/v1beta2/prioritylevelconfigurations/p`);
  assert.equal(v2.body.spec.limited.assuredConcurrencyShares, 9);
});

test('Events: events.svc.io/v1 and core v1 share one storage; watches see each version', async () => {
  const core = `/api/v1/namespaces/${ns}/events`;
  const v1 = `/apis/events.svc.io/v1/namespaces/${ns}/events`;
  const start = await call(server().client, 'GET', core);
  // Started from the list's resourceVersion, the watch sees both writes however soon it is served; it ends by timeout.
  const watching = server().client.raw({
    method: 'GET', path: `${v1}?watch=1&resourceVersion=${start.body.metadata.resourceVersion}&timeoutSeconds=3`, headers: { accept: 'application/json' },
  });
  const created = await call(server().client, 'POST', core, {
    apiVersion: 'v1', kind: 'Event', metadata: { name: 'e1' }, involvedObject: { kind: 'Pod', name: 'p', namespace: ns },
    reason: 'Pulled', message: 'pulled', type: 'Normal', source: { component: 'kubelet', host: 'n' }, count: 3,
    firstTimestamp: '2024-01-01T00:00:00Z', lastTimestamp: '2024-01-01T00:01:00Z', reportingComponent: 'kubelet', reportingInstance: 'n',
  });
  assert.equal(created.status, 201, created.text);
  const seen = await call(server().client, 'GET', `${v1}/e1`);
  assert.equal(seen.status, 200);
  assert.equal(seen.body.apiVersion, 'events.svc.io/v1');
  assert.deepEqual(seen.body.regarding, { kind: 'Pod', name: 'p', namespace: ns });
  assert.equal(seen.body.note, 'pulled');
  assert.equal(seen.body.reportingController, 'kubelet');
  assert.deepEqual(seen.body.deprecatedSource, { component: 'kubelet', host: 'n' });
  assert.equal(seen.body.deprecatedCount, 3);
  assert.equal(seen.body.involvedObject, undefined);

  const made = await call(server().client, 'POST', v1, {
    apiVersion: 'events.svc.io/v1', kind: 'Event', metadata: { name: 'e2' }, eventTime: '2024-01-01T00:00:00.000000Z',
    reportingController: 'c', reportingInstance: 'i', action: 'Scale', reason: 'Scaled', type: 'Normal', note: 'n', regarding: { kind: 'Pod', name: 'q', namespace: ns },
  });
  assert.equal(made.status, 201, made.text);
  const asCore = await call(server().client, 'GET', `${core}/e2`);
  assert.equal(asCore.body.message, 'n');
  assert.deepEqual(asCore.body.involvedObject, { kind: 'Pod', name: 'q', namespace: ns });
  assert.equal(asCore.body.reportingComponent, 'c');
  const names = (await call(server().client, 'GET', v1)).body.items.map((i: { metadata: { name: string } }) => i.metadata.name);
  assert.deepEqual(names, ['e1', 'e2']);

  // The watch (events.svc.io/v1) was open while both were written.
  const watch = await watching;
  assert.ok(watch.ok);
  const events = watch.ok ? await readWatch(watch.value) : [];
  assert.deepEqual(events.map((e) => [e.type, e.object.apiVersion, e.object.metadata.name, e.object.note]), [
    ['ADDED', 'events.svc.io/v1', 'e1', 'pulled'],
    ['ADDED', 'events.svc.io/v1', 'e2', 'n'],
  ]);
});

/** The events of a finished watch response. */
async function readWatch(res: { body: Buffer }): Promise<{ type: string; object: any }[]> {
  return res.body.toString('utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

test('service allocations survive a restart and are released on delete', async () => {
  const s = await startServerProcess({ keepDataDir: true });
  const dataDir = s.dataDir;
  try {
    await createNamespace(s.client, 'alloc');
    const svc = await call(s.client, 'POST', '/api/v1/namespaces/alloc/services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'a' }, spec: { type: 'NodePort', ports: [{ port: 80 }] } });
    assert.equal(svc.status, 201, svc.text);
    await s.stop();
    const again = await startServerProcess({ dataDir, keepDataDir: true, extraArgs: ['--service-cluster-ip-range=10.0.0.0/24'] });
    try {
      const clash = await call(again.client, 'POST', '/api/v1/namespaces/alloc/services', {
        apiVersion: 'v1', kind: 'Service', metadata: { name: 'b' }, spec: { type: 'NodePort', clusterIP: svc.body.spec.clusterIP, ports: [{ port: 80, nodePort: svc.body.spec.ports[0].nodePort }] },
      });
      assert.equal(clash.status, 422, clash.text);
      assert.match(clash.body.message, /already allocated/);
      const outside = await call(again.client, 'POST', '/api/v1/namespaces/alloc/services', {
        apiVersion: 'v1', kind: 'Service', metadata: { name: 'c' }, spec: { clusterIP: '10.9.0.1', ports: [{ port: 80 }] },
      });
      assert.equal(outside.status, 422);
      assert.match(outside.body.message, /not in the valid range\. The range of valid IPs is 10\.0\.0\.0\/24/);
    } finally {
      await again.stop();
    }
  } finally {
    const { rmSync } = await import('node:fs');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
