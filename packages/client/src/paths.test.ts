import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupVersionPath, resourcePath, withQuery } from './paths.js';

test('core and named group paths, cluster and namespaced, subresources', () => {
  assert.equal(groupVersionPath('', 'v1'), '/api/v1');
  assert.equal(groupVersionPath('apps', 'v1'), '/apis/apps/v1');
  assert.equal(resourcePath({ group: '', version: 'v1', resource: 'nodes' }), '/api/v1/nodes');
  assert.equal(resourcePath({ group: '', version: 'v1', resource: 'pods', namespace: 'ns' }, 'p', 'status'), '/api/v1/namespaces/ns/pods/p/status');
  assert.equal(resourcePath({ group: 'coordination.x.io', version: 'v1', resource: 'leases', namespace: 'a' }, 'l'), '/apis/coordination.x.io/v1/namespaces/a/leases/l');
  assert.equal(resourcePath({ group: '', version: 'v1', resource: 'namespaces' }, 'ns', 'finalize'), '/api/v1/namespaces/ns/finalize');
  assert.equal(resourcePath({ group: '', version: 'v1', resource: 'configmaps', namespace: 'ns' }, 'a b'), '/api/v1/namespaces/ns/configmaps/a%20b');
  // a colon stays as client-go sends it: system:aggregate-to-edit, not system%3Aaggregate-to-edit
  assert.equal(resourcePath({ group: 'rbac', version: 'v1', resource: 'clusterroles' }, 'system:view/x'), '/apis/rbac/v1/clusterroles/system:view%2Fx');
});

test('query strings skip undefined values', () => {
  assert.equal(withQuery('/p', {}), '/p');
  assert.equal(withQuery('/p', { a: undefined, limit: 5, watch: true, l: 'x=y' }), '/p?limit=5&watch=true&l=x%3Dy');
});
