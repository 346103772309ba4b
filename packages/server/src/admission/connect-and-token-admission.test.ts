import assert from 'node:assert/strict';
import { test } from 'node:test';
import { forbidden, namesFor } from '@svc-apiserver/api';
import { fakeContext, type FakeRequest } from '../testing/fake-context.js';
import { resourceHandler } from '../http/handlers/resource-handler.js';
import { createRegistry } from '../registry/registry.js';
import { loadCatalog } from '../schema/load-catalog.js';
import { openMemoryBackend } from '../storage/memory/memory-backend.js';
import { chainOf } from './chain.js';
import { admitted, refused, type AdmissionAttributes, type AdmissionPlugin } from './plugin.js';
import { testAdmin } from './testing/admission-test-kit.js';
import { testPod } from './testing/test-objects.js';

/** A registry whose one plugin records what it sees and refuses CONNECTs to containers named `secret`. */
function recording() {
  const seen: AdmissionAttributes[] = [];
  const plugin: AdmissionPlugin = {
    name: 'NodeRestriction', enabledByDefault: true, handles: () => true,
    validate(a) {
      seen.push(structuredClone(a));
      return a.operation === 'CONNECT' && a.object?.['container'] === 'secret'
        ? refused(forbidden({ group: '', resource: 'pods' }, a.name, 'no exec into secrets'))
        : admitted;
    },
  };
  const names = namesFor('svc');
  const registry = createRegistry({ backend: openMemoryBackend(), catalog: loadCatalog(names), names, admission: chainOf([plugin]) });
  const handle = resourceHandler(registry);
  const call = async (req: FakeRequest) => {
    const { ctx, response } = fakeContext({ user: testAdmin, namespace: 'default', ...req });
    await handle(ctx);
    return response;
  };
  return { seen, call };
}

test('exec, attach, portforward and proxy are admitted as CONNECT of their options, before anything connects', async () => {
  const { seen, call } = recording();
  assert.equal((await call({ verb: 'create', resource: 'pods', body: testPod('p') })).code, 201);
  seen.length = 0;
  const exec = await call({ verb: 'create', resource: 'pods', name: 'p', subresource: 'exec', query: { command: 'ls', container: 'c', stdout: 'true' } });
  assert.equal(exec.code, 400, 'past admission the pod has no host');
  const a = seen.find((s) => s.operation === 'CONNECT')!;
  assert.equal(a.subresource, 'exec');
  assert.equal(a.kind, 'PodExecOptions');
  assert.deepEqual(a.object, { kind: 'PodExecOptions', apiVersion: 'v1', stdout: true, container: 'c', command: ['ls'] });
  const refusedExec = await call({ verb: 'create', resource: 'pods', name: 'p', subresource: 'exec', query: { command: 'sh', container: 'secret' } });
  assert.equal(refusedExec.code, 403);
  for (const subresource of ['attach', 'portforward', 'proxy']) {
    seen.length = 0;
    await call({ verb: subresource === 'proxy' ? 'get' : 'create', resource: 'pods', name: 'p', subresource });
    assert.equal(seen[0]?.operation, 'CONNECT', subresource);
    assert.equal(seen[0]?.subresource, subresource);
  }
});

test('token requests are admitted as CREATE of a TokenRequest on serviceaccounts/token', async () => {
  const { seen, call } = recording();
  assert.equal((await call({ verb: 'create', resource: 'serviceaccounts', body: { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' } } })).code, 201);
  seen.length = 0;
  await call({ verb: 'create', resource: 'serviceaccounts', name: 'sa', subresource: 'token', body: { apiVersion: 'authentication.svc.io/v1', kind: 'TokenRequest', spec: {} } });
  const a = seen[0]!;
  assert.deepEqual({ operation: a.operation, resource: a.resource, subresource: a.subresource, kind: a.kind, name: a.name },
    { operation: 'CREATE', resource: 'serviceaccounts', subresource: 'token', kind: 'TokenRequest', name: 'sa' });
});
