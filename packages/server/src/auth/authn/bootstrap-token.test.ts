import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namesFor, type KubeObject } from '@svc-apiserver/api';
import { bearerTokenAuthenticator } from './bearer-token.js';
import { tokenAuthenticatorUnion } from './authenticator.js';
import { bearer, malformedTokens, runAuthenticatorSuite } from './authenticator-suite.js';
import { bootstrapTokenAuthenticator } from './bootstrap-token.js';
import type { ObjectGetter } from './object-getter.js';

const names = namesFor('svc');
const b64 = (s: string): string => Buffer.from(s).toString('base64');

function secret(id: string, tokenSecret: string, data: Record<string, string> = {}, type = 'bootstrap.svc.io/token'): KubeObject {
  const all: Record<string, string> = { 'token-id': id, 'token-secret': tokenSecret, 'usage-bootstrap-authentication': 'true', ...data };
  return {
    apiVersion: 'v1', kind: 'Secret', metadata: { name: `bootstrap-token-${id}`, namespace: 'svc-system' }, type,
    data: Object.fromEntries(Object.entries(all).map(([k, v]) => [k, b64(v)])),
  } as KubeObject;
}

function getter(objects: KubeObject[]): ObjectGetter {
  return async (resource, namespace, name) =>
    resource === 'secrets' ? objects.find((o) => o.metadata?.namespace === namespace && o.metadata?.name === name) : undefined;
}

const future = new Date(Date.now() + 3_600_000).toISOString();
const past = new Date(Date.now() - 1000).toISOString();

runAuthenticatorSuite('bootstrap token', async () => {
  const get = getter([
    secret('abcdef', '0123456789abcdef', { expiration: future, 'auth-extra-groups': 'system:bootstrappers:worker,system:bootstrappers:ingress' }),
    secret('oldold', '0123456789abcdef', { expiration: past }),
  ]);
  return {
    authenticator: bearerTokenAuthenticator(tokenAuthenticatorUnion([bootstrapTokenAuthenticator(names, get)])),
    valid: bearer('abcdef.0123456789abcdef'),
    expected: { username: 'system:bootstrap:abcdef', groups: ['system:bootstrappers', 'system:bootstrappers:worker', 'system:bootstrappers:ingress', 'system:authenticated'] },
    wrong: bearer('abcdef.0123456789abcdee'),
    expired: bearer('oldold.0123456789abcdef'),
    malformed: [...malformedTokens(), 'ABCDEF.0123456789ABCDEF', 'abcdef.0123456789abcdef0', 'abcdef0123456789abcdef'].map(bearer),
  };
});

test('bootstrap token: usage, type, deletion and extra groups are enforced', async () => {
  const cases: [KubeObject, boolean][] = [
    [secret('aaaaaa', '0123456789abcdef', { 'usage-bootstrap-authentication': 'false' }), false],
    [secret('aaaaaa', '0123456789abcdef', {}, 'Opaque'), false],
    [{ ...secret('aaaaaa', '0123456789abcdef'), metadata: { name: 'bootstrap-token-aaaaaa', namespace: 'svc-system', deletionTimestamp: past } }, false],
    [secret('aaaaaa', '0123456789abcdef', { 'auth-extra-groups': 'system:masters' }), false],
    [secret('aaaaaa', '0123456789abcdef'), true],
  ];
  for (const [s, ok] of cases) {
    const authn = bootstrapTokenAuthenticator(names, getter([s]));
    const r = await authn.authenticateToken('aaaaaa.0123456789abcdef');
    assert.equal(r.kind === 'user', ok, JSON.stringify(s));
  }
  // The k8s flavour reads kube-system and bootstrap.kubernetes.io/token.
  const k8s = namesFor('k8s');
  const inKube = { ...secret('bbbbbb', '0123456789abcdef', {}, 'bootstrap.kubernetes.io/token'), metadata: { name: 'bootstrap-token-bbbbbb', namespace: 'kube-system' } };
  assert.equal((await bootstrapTokenAuthenticator(k8s, getter([inKube])).authenticateToken('bbbbbb.0123456789abcdef')).kind, 'user');
});
