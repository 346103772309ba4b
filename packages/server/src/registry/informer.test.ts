import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { testRegistry } from '../http/handlers/test-registry.js';
import { startInformer, type InformerChange } from './informer.js';

async function until(what: string, cond: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

test('an informer holds the current objects and tells its listeners of each change in order', async () => {
  const { registry, call } = await testRegistry(['a', 'b']);
  await call({ verb: 'create', resource: 'configmaps', namespace: 'a', body: { metadata: { name: 'before' } } });
  const def = registry.lookup('', 'v1', 'configmaps')!;
  const informer = startInformer(registry, def, { retryMs: 10 });
  try {
    await informer.synced();
    assert.ok(informer.hasSynced());
    assert.deepEqual(informer.list().map((o) => o.metadata?.name), ['before']);
    const seen: [InformerChange, string, string | undefined][] = [];
    informer.onChange((change, object, old) => seen.push([change, object.metadata?.name ?? '', (old?.data as Record<string, string> | undefined)?.k]));

    await call({ verb: 'create', resource: 'configmaps', namespace: 'b', body: { metadata: { name: 'x' }, data: { k: '1' } } });
    await call({ verb: 'update', resource: 'configmaps', namespace: 'b', name: 'x', body: { metadata: { name: 'x' }, data: { k: '2' } } });
    await call({ verb: 'delete', resource: 'configmaps', namespace: 'a', name: 'before' });
    await until('three changes', () => seen.length === 3);
    assert.deepEqual(seen, [['ADDED', 'x', undefined], ['MODIFIED', 'x', '1'], ['DELETED', 'before', undefined]]);
    assert.equal((informer.get('b', 'x')?.data as Record<string, string>).k, '2');
    assert.equal(informer.get('a', 'before'), undefined);
    assert.deepEqual(informer.listIn('b').map((o: KubeObject) => o.metadata?.name), ['x']);
    assert.deepEqual(informer.listIn('a'), []);
  } finally {
    informer.stop();
  }
});
