import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { namesFor } from '@svc-apiserver/api';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { defaultServerOptions } from '../config.js';
import { buildAuthentication, type AuthenticationFlags } from './authentication-setup.js';
import { generatedSigningKeyFile } from './serviceaccount/keys.js';

const names = namesFor('svc');

async function build(dir: string, over: Partial<AuthenticationFlags>) {
  const r = await buildAuthentication({ ...defaultServerOptions, ...over }, { names, get: async () => undefined, dataDir: dir, log: () => {} });
  if (r.ok) r.value.close();
  return r;
}

test('authentication setup: bad flags stop the start with a message naming the flag', async (t) => {
  const dir = tempDir(t, 'authn-setup-');
  const cases: [Partial<AuthenticationFlags>, RegExp][] = [
    [{ oidcIssuerUrl: 'http://issuer.example', oidcClientId: 'c' }, /https/],
    [{ oidcIssuerUrl: 'https://issuer.example' }, /--oidc-client-id/],
    [{ oidcIssuerUrl: 'https://issuer.example', oidcClientId: 'c', oidcRequiredClaims: ['novalue'] }, /--oidc-required-claim/],
    [{ requestheaderUsernameHeaders: ['X-Remote-User'] }, /must be set together/],
    [{ authenticationTokenWebhookConfigFile: join(dir, 'missing'), authenticationTokenWebhookVersion: 'v2' }, /webhook-version/],
    [{ authenticationTokenWebhookConfigFile: join(dir, 'missing') }, /webhook-config-file/],
    [{ tokenAuthFile: join(dir, 'missing.csv') }, /token file/],
    [{ clientCaFile: join(dir, 'missing.crt') }, /--client-ca-file/],
    [{ serviceAccountKeyFiles: [join(dir, 'missing.pem')] }, /service account key file/],
    [{ serviceAccountIssuers: [] }, /--service-account-issuer/],
  ];
  for (const [flags, message] of cases) {
    const r = await build(dir, flags);
    assert.equal(r.ok, false, JSON.stringify(flags));
    assert.match(r.ok ? '' : r.error, message);
  }
});

test('authentication setup: the signing key is generated once in the data dir; audiences default to the issuers', async (t) => {
  const dir = tempDir(t, 'authn-setup-');
  const first = await build(dir, {});
  assert.ok(first.ok);
  const keyFile = join(dir, generatedSigningKeyFile);
  assert.equal(statSync(keyFile).mode & 0o777, 0o600);
  const pem = readFileSync(keyFile, 'utf8');
  const second = await build(dir, { serviceAccountIssuers: ['https://a', 'https://b'], anonymousAuth: false });
  assert.ok(second.ok);
  assert.equal(readFileSync(keyFile, 'utf8'), pem, 'the key is reused');
  if (!first.ok || !second.ok) return;
  assert.deepEqual(first.value.apiAudiences, ['https://svc-apiserver.svc']);
  assert.deepEqual(second.value.apiAudiences, ['https://a', 'https://b']);
  assert.equal(second.value.anonymous, false);
  // A token issued with the first issuer verifies for the API audiences.
  const token = await second.value.tokenIssuer.issueBound({ namespace: 'ns', serviceAccount: { name: 'sa', uid: 'u' }, audiences: ['https://b'], expirationSeconds: 60 });
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
  assert.equal(payload.iss, 'https://a');
  writeFileSync(join(dir, 'not-a-key.pem'), 'nothing');
  const bad = await build(dir, { serviceAccountSigningKeyFile: join(dir, 'not-a-key.pem') });
  assert.equal(bad.ok, false);
});
