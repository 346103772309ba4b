import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Authorizer } from '../../request/authorizer.js';
import { admissionRig } from '../testing/admission-test-kit.js';
import { pluginConformance } from '../plugin-suite.js';

/** Alice may delete configmaps and update deployments' finalizers named `owned`; nothing else. */
const authorizer: Authorizer = {
  name: 'test',
  async authorize({ user, info }) {
    if (user.username === 'admin') return { decision: 'allow' };
    const allowed = user.username === 'alice' && ((info.verb === 'delete' && info.resource === 'configmaps') ||
      (info.verb === 'update' && info.resource === 'deployments' && info.subresource === 'finalizers' && info.name === 'owned'));
    return allowed ? { decision: 'allow' } : { decision: 'no-opinion', reason: '' };
  },
};
pluginConformance('OwnerReferencesPermissionEnforcement', { authorizer });

test('OwnerReferencesPermissionEnforcement: changing owner references needs delete; blockOwnerDeletion needs update of the owner\'s finalizers', async () => {
  const rig = await admissionRig({ plugins: ['OwnerReferencesPermissionEnforcement'], authorizer });
  const ref = (name: string, block = false) => ({ apiVersion: 'apps/v1', kind: 'Deployment', name, uid: `${name}-uid`, ...(block ? { blockOwnerDeletion: true } : {}) });
  const cm = (name: string, refs: unknown[]) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ownerReferences: refs }, data: {} });
  const as = (username: string) => ({ username, groups: ['system:authenticated'] });
  // Creating with plain references needs nothing.
  assert.equal((await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'default', user: as('bob'), body: cm('a', [ref('owned')]) })).code, 201);
  // Bob may not change references of an object he cannot delete.
  const stored = await rig.get('configmaps', 'default', 'a');
  const change = await rig.call({ verb: 'update', resource: 'configmaps', namespace: 'default', name: 'a', user: as('bob'),
    body: { ...stored, metadata: { ...stored!.metadata, ownerReferences: [ref('other')] } } });
  assert.equal(change.code, 403);
  assert.equal((change.body as { message: string }).message, 'configmaps "a" is forbidden: cannot set an ownerRef on a resource you can\'t delete: , <nil>');
  assert.equal((await rig.call({ verb: 'update', resource: 'configmaps', namespace: 'default', name: 'a', user: as('alice'),
    body: { ...stored, metadata: { ...stored!.metadata, ownerReferences: [ref('other')] } } })).code, 200, 'alice may delete configmaps');
  // Blocking the owner's deletion needs update of its finalizers.
  const blocked = await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'default', user: as('alice'), query: { dryRun: 'All' }, body: cm('b', [ref('elsewhere', true)]) });
  assert.equal(blocked.code, 403);
  assert.equal((blocked.body as { message: string }).message,
    'configmaps "b" is forbidden: cannot set blockOwnerDeletion if an ownerReference refers to a resource you can\'t set finalizers on: , <nil>');
  assert.equal((await rig.call({ verb: 'create', resource: 'configmaps', namespace: 'default', user: as('alice'), body: cm('c', [ref('owned', true)]) })).code, 201);
  rig.close();
});
