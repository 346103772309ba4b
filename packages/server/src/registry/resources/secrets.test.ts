import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Status } from '@svc-apiserver/api';
import { testRegistry } from '../../testing/test-registry.js';

test('a service account token Secret must name its account', async () => {
  const { call } = await testRegistry();
  const missing = await call({ verb: 'create', resource: 'secrets', namespace: 'default', body: { metadata: { name: 't' }, type: 'svc.io/service-account-token' } });
  assert.equal(missing.code, 422);
  assert.equal((missing.body as Status).message, 'Secret "t" is invalid: metadata.annotations[svc.io/service-account.name]: Required value');
  const named = await call({
    verb: 'create', resource: 'secrets', namespace: 'default',
    body: { metadata: { name: 't', annotations: { 'svc.io/service-account.name': 'robot' } }, type: 'svc.io/service-account-token' },
  });
  assert.equal(named.code, 201, JSON.stringify(named.body));
});
