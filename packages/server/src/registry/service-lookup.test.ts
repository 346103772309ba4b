import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testRegistry } from '../testing/test-registry.js';
import { serviceResolver } from '../outbound/service-resolver.js';
import { registryServiceLookup } from './service-lookup.js';

test('Services and Endpoints are read from the cache, each object version decoded once; a change is seen', async () => {
  const t = await testRegistry(['default']);
  const create = async (resource: string, body: unknown) => {
    const res = await t.call({ verb: 'create', resource, namespace: 'default', body });
    assert.equal(res.code, 201, JSON.stringify(res.body));
  };
  await create('services', { metadata: { name: 'ext' }, spec: { ports: [{ name: 'https', port: 443 }] } });
  await create('endpoints', { metadata: { name: 'ext' }, subsets: [{ addresses: [{ ip: '127.0.0.1' }], ports: [{ name: 'https', port: 8443 }] }] });
  const lookup = registryServiceLookup(t.registry);
  const first = await lookup.service('default', 'ext');
  assert.equal((first as { metadata: { name: string } }).metadata.name, 'ext');
  assert.equal(await lookup.service('default', 'ext'), first, 'the same version: the same decoded object');
  assert.equal(await lookup.service('default', 'missing'), undefined);

  const resolver = serviceResolver(lookup);
  assert.deepEqual(await resolver.resolve('default', 'ext', 443), { ok: true, value: { host: '127.0.0.1', port: 8443 } });
  const endpoints = await t.call({ verb: 'get', resource: 'endpoints', namespace: 'default', name: 'ext' });
  const updated = { ...(endpoints.body as Record<string, unknown>), subsets: [{ addresses: [{ ip: '127.0.0.2' }], ports: [{ name: 'https', port: 9443 }] }] };
  const put = await t.call({ verb: 'update', resource: 'endpoints', namespace: 'default', name: 'ext', body: updated });
  assert.equal(put.code, 200, JSON.stringify(put.body));
  assert.deepEqual(await resolver.resolve('default', 'ext', 443), { ok: true, value: { host: '127.0.0.2', port: 9443 } }, 'the new version');
});
