import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectionPrefix, keyUnderPrefix, namespacePrefix, objectKey, prefixEnd } from './key.js';

test('keys follow /registry/<group>/<resource>/<namespace>/<name>, core for the core group', () => {
  assert.equal(collectionPrefix('', 'configmaps'), '/registry/core/configmaps/');
  assert.equal(collectionPrefix('coordination', 'leases'), '/registry/coordination/leases/');
  assert.equal(namespacePrefix('', 'configmaps', 'default'), '/registry/core/configmaps/default/');
  assert.equal(objectKey({ groupKey: '', resource: 'configmaps', namespace: 'ns', name: 'c' }), '/registry/core/configmaps/ns/c');
  assert.equal(objectKey({ groupKey: '', resource: 'namespaces', name: 'default' }), '/registry/core/namespaces/default');
  assert.equal(objectKey({ groupKey: 'coordination', resource: 'leases', namespace: '', name: 'l' }), '/registry/coordination/leases/l');
  assert.equal(keyUnderPrefix('/registry/core/pods/', 'ns', 'p'), '/registry/core/pods/ns/p');
  assert.equal(keyUnderPrefix('/registry/core/nodes/', undefined, 'n'), '/registry/core/nodes/n');
});

test('prefixEnd is the first string after every key under the prefix', () => {
  assert.equal(prefixEnd('/registry/core/pods/'), '/registry/core/pods0');
  assert.equal(prefixEnd('ab'), 'ac');
  assert.equal(prefixEnd(''), undefined);
  assert.equal(prefixEnd('a\uffff'), 'b');
  const end = prefixEnd('/registry/core/pods/')!;
  for (const key of ['/registry/core/pods/a', '/registry/core/pods/ns/zzz\u007f', '/registry/core/pods/']) assert.ok(key < end);
  assert.ok(!('/registry/core/pods0' < end));
  assert.ok(!('/registry/core/podsx' < end));
});
