import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Status } from '@svc-apiserver/api';
import { testRegistry } from '../../../testing/test-registry.js';

type PodBody = { spec: { containers: { image: string }[]; ephemeralContainers?: { name: string; image: string; imagePullPolicy?: string }[] } };

test('pods/ephemeralcontainers changes spec.ephemeralContainers only and keeps existing ones', async () => {
  const { call } = await testRegistry();
  await call({ verb: 'create', resource: 'pods', namespace: 'default', body: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx:1.25' }] } } });
  const sub = (verb: string, body?: unknown, contentType?: string) =>
    call({ verb, resource: 'pods', namespace: 'default', name: 'p', subresource: 'ephemeralcontainers', ...(body === undefined ? {} : { body }), ...(contentType ? { contentType } : {}) });
  const got = await sub('get');
  assert.equal(got.code, 200);
  const pod = got.body as PodBody;
  const added = await sub('update', { ...pod, spec: { ...pod.spec, containers: [{ name: 'c', image: 'changed:1' }], ephemeralContainers: [{ name: 'debug', image: 'busybox' }] } });
  assert.equal(added.code, 200, JSON.stringify(added.body));
  const a = added.body as PodBody;
  assert.equal(a.spec.containers[0]!.image, 'nginx:1.25', 'other spec fields are kept');
  assert.equal(a.spec.ephemeralContainers?.[0]?.name, 'debug');
  assert.equal(a.spec.ephemeralContainers?.[0]?.imagePullPolicy, 'Always');

  const changed = await sub('patch', { spec: { ephemeralContainers: [{ name: 'debug', image: 'other' }] } }, 'application/merge-patch+json');
  assert.equal(changed.code, 422);
  assert.match((changed.body as Status).message ?? '', /existing ephemeral containers "debug" may not be changed/);
  const duplicate = await sub('patch', { spec: { ephemeralContainers: [...(a.spec.ephemeralContainers ?? []), { name: 'c', image: 'x' }] } }, 'application/merge-patch+json');
  assert.equal(duplicate.code, 422);
  const viaMain = await call({ verb: 'update', resource: 'pods', namespace: 'default', name: 'p', body: { ...a, spec: { ...a.spec, ephemeralContainers: [] } } });
  assert.equal(viaMain.code, 422, 'the main resource may not change ephemeral containers');
});
