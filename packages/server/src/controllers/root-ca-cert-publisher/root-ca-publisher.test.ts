import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { testRegistry } from '../../testing/test-registry.js';
import { until } from '../../testing/until.js';
import { rootCaDescription, startRootCaPublisher } from './root-ca-publisher.js';

const caPem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
type ConfigMap = KubeObject & { data?: Record<string, string> };

test('every namespace gets the root CA ConfigMap; edits and deletions are put right', async () => {
  const t = await testRegistry(['default', 'team']);
  const ctl = startRootCaPublisher({ registry: t.registry, names: t.names, retryMs: 20, config: { rootCaPem: caPem } });
  const get = async (ns: string) => {
    const r = await t.call({ verb: 'get', resource: 'configmaps', namespace: ns, name: 'svc-root-ca.crt' });
    return r.code === 200 ? (r.body as ConfigMap) : undefined;
  };
  try {
    await until('published in both', async () => (await get('default')) !== undefined && (await get('team')) !== undefined);
    const cm = (await get('team'))!;
    assert.deepEqual(cm.data, { 'ca.crt': caPem });
    assert.equal(cm.metadata?.annotations?.['svc.io/description'], rootCaDescription);
    const edited = await t.call({ verb: 'update', resource: 'configmaps', namespace: 'team', name: 'svc-root-ca.crt', body: { ...cm, data: { 'ca.crt': 'bogus', extra: 'x' } } });
    assert.equal(edited.code, 200);
    await until('edit reverted', async () => JSON.stringify((await get('team'))?.data) === JSON.stringify({ 'ca.crt': caPem }));
    await t.call({ verb: 'delete', resource: 'configmaps', namespace: 'team', name: 'svc-root-ca.crt' });
    await until('recreated', async () => (await get('team'))?.data?.['ca.crt'] === caPem);
    await t.call({ verb: 'create', resource: 'namespaces', body: { metadata: { name: 'later' } } });
    await until('published in a new namespace', async () => (await get('later')) !== undefined);
  } finally {
    await ctl.stop();
  }
});
