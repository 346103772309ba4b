import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namesFor } from '@svc-apiserver/api';
import type { AdmissionAttributes } from '../plugin.js';
import { pluginConformance } from '../plugin-suite.js';
import { alwaysAdmitPlugin } from './always-admit.js';
import { alwaysDenyPlugin } from './always-deny.js';

pluginConformance('AlwaysAdmit');
// The rig's namespace would be refused too.
pluginConformance('AlwaysDeny', { namespaces: [] });

const names = namesFor('svc');

const attributes = (operation: AdmissionAttributes['operation']): AdmissionAttributes => ({
  operation, group: '', version: 'v1', resource: 'configmaps', subresource: '', kind: 'ConfigMap', namespace: 'default', name: 'cm',
  dryRun: false, user: { username: 'u', groups: [] },
  ...(operation === 'DELETE' ? {} : { object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' } } }),
});

test('AlwaysAdmit admits every operation in both phases, and says it is deprecated', async () => {
  const p = alwaysAdmitPlugin(names);
  assert.match(p.deprecationWarning ?? '', /^AlwaysAdmit admission controller is deprecated/);
  for (const op of ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const) {
    assert.ok(p.handles(op));
    assert.deepEqual(await p.admit!(attributes(op)), { allowed: true });
    assert.deepEqual(await p.validate!(attributes(op)), { allowed: true });
  }
});

test('AlwaysDeny refuses every operation in both phases with kube\'s 403', async () => {
  const p = alwaysDenyPlugin(names);
  assert.match(p.deprecationWarning ?? '', /^AlwaysDeny admission controller is deprecated/);
  for (const op of ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'] as const) {
    assert.ok(p.handles(op));
    for (const r of [await p.admit!(attributes(op)), await p.validate!(attributes(op))]) {
      assert.equal(r.allowed, false);
      assert.equal(r.allowed ? 0 : r.status.code, 403);
      assert.equal(r.allowed ? '' : r.status.message, 'configmaps "cm" is forbidden: admission control is denying all modifications');
    }
  }
});
