import assert from 'node:assert/strict';
import { test } from 'node:test';
import { badRequest, type KubeObject } from '@svc-apiserver/api';
import { patchMechanismFor, storedObjectPatchTypes } from './mechanism-for.js';
import { withUpdateSteps } from './patch-mechanism.js';
import { permissivePatchSchema } from '../../../patch/patch-schema.js';
import { applyJsonPatch } from '../../../patch/json-patch.js';
import { mergePatch } from '../../../patch/merge-patch.js';
import { strategicMergePatch } from '../../../patch/strategic-merge-patch.js';

const target = { qualified: { group: '', resource: 'configmaps' }, name: 'x' };
const stored: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' }, data: { a: '1' } };

test('one mechanism per stored-object patch type; other media types are 415', async () => {
  const patches: Record<string, unknown> = {
    'application/json-patch+json': [{ op: 'replace', path: '/data/a', value: '2' }],
    'application/merge-patch+json': { data: { a: '2' } },
    'application/strategic-merge-patch+json': { data: { a: '2' } },
  };
  assert.deepEqual(Object.keys(patches), [...storedObjectPatchTypes]);
  for (const [type, patch] of Object.entries(patches)) {
    const made = patchMechanismFor(type, target, patch, permissivePatchSchema);
    assert.ok(made.ok, type);
    const next = await made.value.next(stored);
    assert.deepEqual(next.ok && next.value.object['data'], { a: '2' }, type);
  }
  const apply = patchMechanismFor('application/apply-patch+yaml', target, {}, permissivePatchSchema);
  assert.equal(!apply.ok && apply.error.code, 415);
});

test('update steps: the patched object is checked (its warnings kept) and tracked against the stored one', async () => {
  const made = patchMechanismFor('application/merge-patch+json', target, { data: { b: '2' } }, permissivePatchSchema);
  assert.ok(made.ok);
  const tracked: (KubeObject | undefined)[] = [];
  const mechanism = withUpdateSteps(made.value, {
    check: () => ({ ok: true, value: ['unknown field "x"'] }),
    defaults: () => undefined,
    track: (current, object) => {
      tracked.push(current);
      return { ...object, metadata: { ...object.metadata, managedFields: [] } };
    },
  });
  assert.equal(mechanism.createsMissing, false);
  const next = await mechanism.next(stored);
  assert.ok(next.ok);
  assert.deepEqual(next.value.warnings, ['unknown field "x"']);
  assert.deepEqual(next.value.object.metadata?.managedFields, []);
  assert.deepEqual(tracked, [stored]);
  const refused = await withUpdateSteps(made.value, { check: () => ({ ok: false, error: badRequest('bad field') }), defaults: () => undefined, track: (_c, o) => o }).next(stored);
  assert.equal(!refused.ok && refused.error.message, 'bad field');
});

test('a large stored object is patched on a private copy: the result is what patching a small one gives, the stored one unchanged', async () => {
  const data: Record<string, string> = {};
  for (let i = 0; i < 10_000; i++) data[`k${i}`] = 'v';
  const big: KubeObject = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', labels: { a: 'b' } }, data, list: [{ name: 'n', value: 1 }] };
  const before = JSON.stringify(big);
  const patches: Record<string, unknown> = {
    'application/json-patch+json': [{ op: 'replace', path: '/data/k1', value: '2' }, { op: 'remove', path: '/data/k2' }, { op: 'copy', from: '/data/k3', path: '/data/k3c' }],
    'application/merge-patch+json': { data: { k1: '2', k2: null, new: 'n' }, metadata: { labels: { a: null } } },
    'application/strategic-merge-patch+json': { data: { k1: '2', k2: null }, metadata: { labels: { c: 'd' } } },
  };
  // What the patch functions make on their own copies (the path of small objects).
  const expected: Record<string, unknown> = {
    'application/json-patch+json': applyJsonPatch(big, patches['application/json-patch+json']),
    'application/merge-patch+json': { ok: true, value: mergePatch(big, patches['application/merge-patch+json']) },
    'application/strategic-merge-patch+json': strategicMergePatch(big, patches['application/strategic-merge-patch+json'], permissivePatchSchema),
  };
  assert.equal(JSON.stringify(big), before);
  for (const [type, patch] of Object.entries(patches)) {
    const made = patchMechanismFor(type, target, patch, permissivePatchSchema);
    assert.ok(made.ok, type);
    const next = await made.value.next(big);
    const want = expected[type] as { ok: boolean; value: unknown };
    assert.ok(next.ok && want.ok, type);
    assert.equal(JSON.stringify(next.value.object), JSON.stringify(want.value), type);
    assert.equal((next.value.object['data'] as Record<string, unknown>)['k1'], '2', type);
    assert.equal(JSON.stringify(big), before, `${type} left the stored object unchanged`);
  }
});
