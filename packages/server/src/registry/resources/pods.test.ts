import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testRegistry } from '../../testing/test-registry.js';

type Spec = { serviceAccountName?: string; serviceAccount?: string };

test('spec.serviceAccount mirrors serviceAccountName, and names the account when only it is set (v1 conversion)', async () => {
  const { call } = await testRegistry();
  const create = async (name: string, spec: Spec) => {
    const r = await call({ verb: 'create', resource: 'pods', namespace: 'default', body: { metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }], ...spec } } });
    assert.equal(r.code, 201, JSON.stringify(r.body));
    return (r.body as { spec: Spec }).spec;
  };
  const named = await create('named', { serviceAccountName: 'robot' });
  assert.equal(named.serviceAccount, 'robot');
  const alias = await create('alias', { serviceAccount: 'legacy' });
  assert.equal(alias.serviceAccountName, 'legacy');
  assert.equal(alias.serviceAccount, 'legacy');
  const both = await create('both', { serviceAccountName: 'new', serviceAccount: 'old' });
  assert.deepEqual([both.serviceAccountName, both.serviceAccount], ['new', 'new'], 'serviceAccountName wins');
  const neither = await create('neither', {});
  assert.equal(neither.serviceAccount, undefined);
  const template = await call({
    verb: 'create', group: 'apps', resource: 'deployments', namespace: 'default',
    body: { metadata: { name: 'd' }, spec: { selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { serviceAccountName: 'robot', containers: [{ name: 'c', image: 'i' }] } } } },
  });
  assert.equal(template.code, 201, JSON.stringify(template.body));
  assert.equal((template.body as { spec: { template: { spec: Spec } } }).spec.template.spec.serviceAccount, 'robot', 'pod templates too');
});
