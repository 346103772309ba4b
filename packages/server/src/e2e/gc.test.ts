/**
 * Garbage collection over HTTPS against the real server: the three propagation policies on a chain of owners.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, eventually } from './http.js';
import { serverForFile } from './server-process.js';

const ns = 'e2e-gc';
const cms = `/api/v1/namespaces/${ns}/configmaps`;
const server = serverForFile({}, ns);

async function chain(prefix: string, block: boolean): Promise<void> {
  let owner: { name: string; uid: string } | undefined;
  for (const n of ['a', 'b', 'c']) {
    const refs = owner ? [{ apiVersion: 'v1', kind: 'ConfigMap', name: owner.name, uid: owner.uid, ...(block ? { blockOwnerDeletion: true } : {}) }] : [];
    const r = await call(server().client, 'POST', cms, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${prefix}-${n}`, ownerReferences: refs } });
    assert.equal(r.status, 201, r.text);
    owner = { name: r.body.metadata.name, uid: r.body.metadata.uid };
  }
}
const exists = async (name: string): Promise<boolean> => (await call(server().client, 'GET', `${cms}/${name}`)).status === 200;

for (const policy of ['Background', 'Foreground'] as const) {
  test(`${policy}: deleting the head of a chain deletes the whole chain`, async () => {
    const p = policy.toLowerCase();
    await chain(p, policy === 'Foreground');
    const del = await call(server().client, 'DELETE', `${cms}/${p}-a`, { propagationPolicy: policy });
    assert.equal(del.status, 200, del.text);
    if (policy === 'Foreground') {
      assert.deepEqual(del.body.metadata.finalizers, ['foregroundDeletion']);
      assert.ok(del.body.metadata.deletionTimestamp);
    }
    assert.ok(await eventually(async () => !(await exists(`${p}-a`)) && !(await exists(`${p}-b`)) && !(await exists(`${p}-c`))), 'chain collected');
  });
}

test('Orphan: the dependent stays, without its owner reference', async () => {
  await chain('orphan', false);
  const del = await call(server().client, 'DELETE', `${cms}/orphan-a?propagationPolicy=Orphan`);
  assert.equal(del.status, 200, del.text);
  assert.ok(await eventually(async () => !(await exists('orphan-a'))));
  const b = await call(server().client, 'GET', `${cms}/orphan-b`);
  assert.equal(b.status, 200);
  assert.equal(b.body.metadata.ownerReferences, undefined);
  assert.ok(await exists('orphan-c'));
});
