import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compactVerify } from 'jose';
import type { KubeObject } from '@svc-apiserver/api';
import { testRegistry } from '../../testing/test-registry.js';
import { bootstrapTokenSecret } from '../../testing/bootstrap-test-tokens.js';
import { fakeClock } from '../kit/clock.js';
import { until } from '../../testing/until.js';
import { startBootstrapSigner } from './bootstrap-signer.js';
import { detachedSignature } from './detached-jws.js';

type ConfigMap = KubeObject & { data?: Record<string, string> };

/** Document 2's verifier: the payload, base64url without padding, between the periods; the full token as key. */
async function verifies(detached: string, content: string, token: string): Promise<boolean> {
  const [header, empty, signature] = detached.split('.');
  if (empty !== '') return false;
  try {
    await compactVerify(`${header}.${Buffer.from(content).toString('base64url')}.${signature}`, new TextEncoder().encode(token));
    return true;
  } catch {
    return false;
  }
}

test('detached signatures: HS256 keyed by the full token, kid the token id, same input same signature', async () => {
  const sig = await detachedSignature('payload', 'abcdef', '0123456789abcdef');
  const [header, payload] = sig.split('.');
  assert.equal(payload, '');
  assert.deepEqual(JSON.parse(Buffer.from(header!, 'base64url').toString()), { alg: 'HS256', kid: 'abcdef' });
  assert.equal(await verifies(sig, 'payload', 'abcdef.0123456789abcdef'), true);
  assert.equal(await verifies(sig, 'payload', 'abcdef.0123456789abcdeX'), false);
  assert.equal(await verifies(sig, 'other', 'abcdef.0123456789abcdef'), false);
  assert.equal(await detachedSignature('payload', 'abcdef', '0123456789abcdef'), sig);
});

test('cluster-info carries a signature per signing token, and loses it when the token goes or expires', async () => {
  const t = await testRegistry(['default', 'svc-system', 'svc-public']);
  const now = Date.now();
  const clock = fakeClock(now);
  const ctl = startBootstrapSigner({ registry: t.registry, names: t.names, retryMs: 20, config: { clock } });
  const kubeconfig = 'apiVersion: v1\nkind: Config\n';
  const get = async () => (await t.call({ verb: 'get', resource: 'configmaps', namespace: 'svc-public', name: 'cluster-info' })).body as ConfigMap;
  const create = (s: KubeObject) => t.call({ verb: 'create', resource: 'secrets', namespace: 'svc-system', body: s });
  try {
    assert.equal((await t.call({ verb: 'create', resource: 'configmaps', namespace: 'svc-public', body: { metadata: { name: 'cluster-info' }, data: { kubeconfig } } })).code, 201);
    await create(bootstrapTokenSecret(t.names, 'aaaaaa', 'aaaaaaaaaaaaaaaa', { 'usage-bootstrap-signing': 'true' }));
    await create(bootstrapTokenSecret(t.names, 'bbbbbb', 'bbbbbbbbbbbbbbbb', { 'usage-bootstrap-signing': 'true', expiration: new Date(now + 3_600_000).toISOString() }));
    await create(bootstrapTokenSecret(t.names, 'cccccc', 'cccccccccccccccc', { 'usage-bootstrap-authentication': 'true' }));
    await create(bootstrapTokenSecret(t.names, 'dddddd', 'dddddddddddddddd', { 'usage-bootstrap-signing': 'true', expiration: new Date(now - 1000).toISOString() }));
    await until('two signatures', async () => Object.keys((await get()).data ?? {}).filter((k) => k.startsWith('jws-')).length === 2);
    const data = (await get()).data!;
    assert.deepEqual(Object.keys(data).sort(), ['jws-kubeconfig-aaaaaa', 'jws-kubeconfig-bbbbbb', 'kubeconfig']);
    assert.equal(await verifies(data['jws-kubeconfig-aaaaaa']!, kubeconfig, 'aaaaaa.aaaaaaaaaaaaaaaa'), true);
    assert.equal(await verifies(data['jws-kubeconfig-bbbbbb']!, kubeconfig, 'bbbbbb.bbbbbbbbbbbbbbbb'), true);
    await t.call({ verb: 'delete', resource: 'secrets', namespace: 'svc-system', name: 'bootstrap-token-aaaaaa' });
    await until('signature of a deleted token removed', async () => (await get()).data?.['jws-kubeconfig-aaaaaa'] === undefined);
    const before = (await get()).metadata?.resourceVersion;
    await ctl.idle();
    clock.step(3_600_001);
    await until('signature of an expired token removed', async () => (await get()).data?.['jws-kubeconfig-bbbbbb'] === undefined);
    assert.notEqual((await get()).metadata?.resourceVersion, before);
    assert.deepEqual(Object.keys((await get()).data!), ['kubeconfig']);
  } finally {
    await ctl.stop();
  }
});
