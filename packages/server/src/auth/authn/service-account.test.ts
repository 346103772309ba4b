import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { namesFor, type KubeObject } from '@svc-apiserver/api';
import { bearerTokenAuthenticator } from './bearer-token.js';
import { tokenAuthenticatorUnion } from './authenticator.js';
import { bearer, malformedTokens, runAuthenticatorSuite } from './authenticator-suite.js';
import type { ObjectGetter } from './object-getter.js';
import { serviceAccountAuthenticator } from './service-account.js';
import { parseVerificationKeys, signingKey, verificationKey } from '../serviceaccount/keys.js';
import { serviceAccountTokenIssuer } from '../serviceaccount/token-issuer.js';

const names = namesFor('svc');
const issuerUrl = 'https://svc-apiserver.svc';
const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
const key = signingKey(rsa.privateKey)!;
const issuer = serviceAccountTokenIssuer(names, key, issuerUrl);
const otherKey = signingKey(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey)!;
const forger = serviceAccountTokenIssuer(names, otherKey, issuerUrl);

const sa = { name: 'builder', uid: 'sa-uid-1' };
const pod = { name: 'web-0', uid: 'pod-uid-1' };

function world(): { objects: KubeObject[]; get: ObjectGetter } {
  const objects: KubeObject[] = [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'builder', namespace: 'ci', uid: 'sa-uid-1' } },
    { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-0', namespace: 'ci', uid: 'pod-uid-1' } },
  ];
  const kinds = { serviceaccounts: 'ServiceAccount', secrets: 'Secret', pods: 'Pod' } as const;
  return {
    objects,
    get: async (resource, namespace, name) =>
      objects.find((o) => o.kind === kinds[resource] && o.metadata?.namespace === namespace && o.metadata?.name === name),
  };
}

function authenticator(get: ObjectGetter, lookup = true) {
  return serviceAccountAuthenticator({ names, keys: [verificationKey(key.publicKey)!], issuers: [issuerUrl], apiAudiences: [issuerUrl], lookup, get });
}

runAuthenticatorSuite('service account token (bound)', async () => {
  const { get } = world();
  const valid = await issuer.issueBound({ namespace: 'ci', serviceAccount: sa, pod, audiences: [issuerUrl], expirationSeconds: 3600 });
  return {
    authenticator: bearerTokenAuthenticator(tokenAuthenticatorUnion([authenticator(get)])),
    valid: bearer(valid),
    expected: { username: 'system:serviceaccount:ci:builder', uid: 'sa-uid-1', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'] },
    wrong: bearer(await forger.issueBound({ namespace: 'ci', serviceAccount: sa, audiences: [issuerUrl], expirationSeconds: 3600 })),
    expired: bearer(await issuer.issueBound({ namespace: 'ci', serviceAccount: sa, audiences: [issuerUrl], expirationSeconds: 600, now: Date.now() - 3_600_000 })),
    malformed: [
      ...malformedTokens(valid),
      await issuer.issueBound({ namespace: 'ci', serviceAccount: sa, audiences: ['someone-else'], expirationSeconds: 3600 }),
    ].map(bearer),
  };
});

runAuthenticatorSuite('service account token (legacy)', async () => {
  const w = world();
  const valid = await issuer.issueLegacy('ci', sa, 'builder-token');
  w.objects.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'builder-token', namespace: 'ci', uid: 's-1' }, data: { token: Buffer.from(valid).toString('base64') } } as KubeObject);
  return {
    authenticator: bearerTokenAuthenticator(tokenAuthenticatorUnion([authenticator(w.get)])),
    valid: bearer(valid),
    expected: { username: 'system:serviceaccount:ci:builder', uid: 'sa-uid-1' },
    wrong: bearer(await forger.issueLegacy('ci', sa, 'builder-token')),
    expired: 'legacy tokens do not expire; they are revoked by deleting their Secret (tested below)',
    malformed: malformedTokens(valid).map(bearer),
  };
});

test('service account tokens: deletion or recreation of the account, Secret or Pod revokes them', async () => {
  const w = world();
  const authn = authenticator(w.get);
  const legacy = await issuer.issueLegacy('ci', sa, 'builder-token');
  w.objects.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'builder-token', namespace: 'ci', uid: 's-1' }, data: { token: Buffer.from(legacy).toString('base64') } } as KubeObject);
  const bound = await issuer.issueBound({ namespace: 'ci', serviceAccount: sa, pod, audiences: [issuerUrl], expirationSeconds: 3600 });
  const boundSecret = await issuer.issueBound({ namespace: 'ci', serviceAccount: sa, secret: { name: 'builder-token', uid: 's-1' }, audiences: [issuerUrl], expirationSeconds: 3600 });
  for (const t of [legacy, bound, boundSecret]) assert.equal((await authn.authenticateToken(t)).kind, 'user');
  const r = await authn.authenticateToken(bound);
  assert.deepEqual(r.kind === 'user' ? r.user.extra : undefined, { 'authentication.svc.io/pod-name': ['web-0'], 'authentication.svc.io/pod-uid': ['pod-uid-1'] });
  // The pod is recreated under the same name: new uid, the old binding no longer holds.
  w.objects[1] = { ...w.objects[1]!, metadata: { name: 'web-0', namespace: 'ci', uid: 'pod-uid-2' } };
  assert.equal((await authn.authenticateToken(bound)).kind, 'error');
  assert.equal((await authn.authenticateToken(legacy)).kind, 'user');
  // The secret goes: the legacy token and the secret-bound token die.
  w.objects.splice(2, 1);
  assert.equal((await authn.authenticateToken(legacy)).kind, 'error');
  assert.equal((await authn.authenticateToken(boundSecret)).kind, 'error');
  // Without lookup a legacy token is trusted as signed.
  assert.equal((await authenticator(w.get, false).authenticateToken(legacy)).kind, 'user');
  // The account goes: everything dies.
  w.objects.splice(0, 1);
  assert.equal((await authenticator(w.get, true).authenticateToken(legacy)).kind, 'error');
});

test('service account tokens: audiences and foreign issuers', async () => {
  const w = world();
  const authn = authenticator(w.get);
  const token = await issuer.issueBound({ namespace: 'ci', serviceAccount: sa, audiences: [issuerUrl, 'vault'], expirationSeconds: 3600 });
  const forVault = await authn.authenticateToken(token, ['vault', 'other']);
  assert.deepEqual(forVault.kind === 'user' ? forVault.audiences : undefined, ['vault']);
  assert.equal((await authn.authenticateToken(token, ['other'])).kind, 'error');
  const foreign = await serviceAccountTokenIssuer(names, key, 'https://elsewhere').issueBound({ namespace: 'ci', serviceAccount: sa, audiences: [issuerUrl], expirationSeconds: 60 });
  assert.deepEqual(await authn.authenticateToken(foreign), { kind: 'none' }, 'another issuer is another method\'s');
});

test('service account keys: PEM files with several public and private keys', () => {
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const pem = [
    rsa.publicKey.export({ type: 'spki', format: 'pem' }),
    ec.privateKey.export({ type: 'sec1', format: 'pem' }),
    rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }),
  ].join('\n');
  const keys = parseVerificationKeys(pem, 'keys.pem');
  assert.ok(keys.ok);
  if (!keys.ok) return;
  assert.deepEqual(keys.value.map((k) => k.algorithms[0]), ['RS256', 'ES384', 'RS256']);
  assert.equal(keys.value[0]!.kid, keys.value[2]!.kid, 'a private key verifies as its public key');
  assert.equal(parseVerificationKeys('nothing here', 'x').ok, false);
  const ed = generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();
  assert.equal(parseVerificationKeys(ed, 'ed').ok, false);
});
