import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import type { ResourceDef } from '../resource-def.js';
import { optimisticLockFailure, preconditionFailure } from './preconditions.js';

const configMaps = { qualified: { group: '', resource: 'configmaps' } } as ResourceDef;
const leases = { qualified: { group: 'coordination.svc.io', resource: 'leases' } } as ResourceDef;
const stored: KubeObject = { metadata: { name: 'x', uid: 'u-1', resourceVersion: '7' } };

test('preconditions: a uid or resourceVersion other than the stored one is 409 Conflict in kube words', () => {
  const uid = preconditionFailure(configMaps, 'x', stored, { uid: 'u-2' });
  assert.equal(uid?.code, 409);
  assert.equal(uid?.reason, 'Conflict');
  assert.equal(uid?.message, 'Operation cannot be fulfilled on configmaps "x": Precondition failed: UID in precondition: u-2, UID in object meta: u-1');
  assert.deepEqual(uid?.details, { name: 'x', kind: 'configmaps' });
  const rv = preconditionFailure(leases, 'x', stored, { uid: 'u-1', resourceVersion: '6' });
  assert.equal(rv?.message,
    'Operation cannot be fulfilled on leases.coordination.svc.io "x": Precondition failed: ResourceVersion in precondition: 6, ResourceVersion in object meta: 7');
  assert.equal(preconditionFailure(configMaps, 'x', stored, { uid: 'u-1', resourceVersion: '7' }), undefined);
  assert.equal(preconditionFailure(configMaps, 'x', stored, {}), undefined);
  assert.equal(preconditionFailure(configMaps, 'x', stored, undefined), undefined);
});

test('preconditions: nothing stored has no uid (an update that would create fails a uid precondition)', () => {
  assert.equal(preconditionFailure(configMaps, 'x', undefined, { uid: 'u-1' })?.message,
    'Operation cannot be fulfilled on configmaps "x": Precondition failed: UID in precondition: u-1, UID in object meta: ');
  assert.equal(preconditionFailure(configMaps, 'x', undefined, undefined), undefined);
});

test('optimistic lock: a resourceVersion sent must be the stored one; none sent passes', () => {
  const stale = optimisticLockFailure(configMaps, 'x', '6', stored);
  assert.equal(stale?.code, 409);
  assert.equal(stale?.message,
    'Operation cannot be fulfilled on configmaps "x": the object has been modified; please apply your changes to the latest version and try again');
  assert.equal(optimisticLockFailure(configMaps, 'x', '7', stored), undefined);
  assert.equal(optimisticLockFailure(configMaps, 'x', '', stored), undefined);
});
