import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateKeyPairSync } from 'node:crypto';
import { importJWK, jwtVerify } from 'jose';
import { namesFor } from '@svc-apiserver/api';
import { issuerDiscovery } from './issuer-discovery.js';
import { signingKey, verificationKey } from './keys.js';
import { serviceAccountTokenIssuer } from './token-issuer.js';

const rsa = signingKey(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey)!;
const ec = verificationKey(generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).publicKey)!;

test('the configuration and key set verify a token this server issued', async () => {
  const made = await issuerDiscovery({ issuer: 'https://svc-apiserver.svc', jwksUri: '', keys: [verificationKey(rsa.publicKey)!, ec] });
  assert.ok(made.ok);
  const docs = made.value('127.0.0.1:6443');
  assert.deepEqual(JSON.parse(docs.configuration), {
    issuer: 'https://svc-apiserver.svc',
    jwks_uri: 'https://127.0.0.1:6443/openid/v1/jwks',
    response_types_supported: ['id_token'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['ES384', 'RS256'],
  });
  const keys = JSON.parse(docs.keySet).keys as { kid: string; alg: string; use: string; kty: string }[];
  assert.deepEqual(keys.map((k) => [k.use, k.kty, k.alg, k.kid]), [['sig', 'RSA', 'RS256', rsa.kid], ['sig', 'EC', 'ES384', ec.kid]]);
  const token = await serviceAccountTokenIssuer(namesFor('svc'), rsa, 'https://svc-apiserver.svc').issueBound({
    namespace: 'ns', serviceAccount: { name: 'sa', uid: 'u' }, audiences: ['outside'], expirationSeconds: 600,
  });
  const jwk = keys.find((k) => k.kid === rsa.kid)!;
  const { payload } = await jwtVerify(token, await importJWK(jwk, 'RS256'), { issuer: 'https://svc-apiserver.svc', audience: 'outside' });
  assert.equal(payload.sub, 'system:serviceaccount:ns:sa');
});

test('--service-account-jwks-uri is used as given; non-https issuers and URIs are refused', async () => {
  const keys = [ec];
  const given = await issuerDiscovery({ issuer: 'https://issuer.example', jwksUri: 'https://keys.example/jwks?x=1', keys });
  assert.ok(given.ok);
  assert.equal(JSON.parse(given.value('h:1').configuration).jwks_uri, 'https://keys.example/jwks?x=1');
  assert.deepEqual(await issuerDiscovery({ issuer: 'http://issuer.example', jwksUri: '', keys }), { ok: false, error: 'issuer URL must use https scheme, got: http://issuer.example' });
  assert.deepEqual(await issuerDiscovery({ issuer: 'https://issuer.example#x', jwksUri: '', keys }), { ok: false, error: 'issuer URL may not include a fragment, got: https://issuer.example#x' });
  assert.deepEqual(await issuerDiscovery({ issuer: 'https://issuer.example', jwksUri: 'http://keys.example', keys }), { ok: false, error: 'jwksURI must use https scheme, got: http://keys.example' });
  assert.deepEqual(await issuerDiscovery({ issuer: 'https://issuer.example', jwksUri: '', keys: [] }), { ok: false, error: 'no keys provided for validating keyset' });
});
