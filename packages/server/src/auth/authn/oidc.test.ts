import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SignJWT, generateKeyPair } from 'jose';
import { startOidcIssuer, testTls } from '../../testing/auth-fixtures.js';
import { bearerTokenAuthenticator } from './bearer-token.js';
import { tokenAuthenticatorUnion } from './authenticator.js';
import { bearer, malformedTokens, runAuthenticatorSuite } from './authenticator-suite.js';
import { oidcAuthenticator, validateOidcOptions, type OidcOptions } from './oidc.js';

const tls = testTls('oidc-ca');

function options(issuerUrl: string, caPem: string, over: Partial<OidcOptions> = {}): OidcOptions {
  return {
    issuerUrl, clientId: 'svc-client', usernameClaim: 'sub', usernamePrefix: '', groupsClaim: 'groups', groupsPrefix: 'oidc:',
    requiredClaims: {}, caPem, signingAlgs: ['RS256'], refreshCooldownMs: 0, ...over,
  };
}

runAuthenticatorSuite('oidc', async () => {
  const issuer = await startOidcIssuer(await tls);
  const oidc = oidcAuthenticator(options(issuer.issuer, issuer.caPem));
  const valid = await issuer.token({ groups: ['dev'] });
  const stranger = await generateKeyPair('RS256');
  const now = Math.floor(Date.now() / 1000);
  const forged = await new SignJWT({ iss: issuer.issuer, aud: 'svc-client', sub: 'alice', exp: now + 600 })
    .setProtectedHeader({ alg: 'RS256', kid: 'key-1' }).sign(stranger.privateKey);
  return {
    authenticator: bearerTokenAuthenticator(tokenAuthenticatorUnion([oidc])),
    valid: bearer(valid),
    expected: { username: `${issuer.issuer}#alice`, groups: ['oidc:dev', 'system:authenticated'] },
    wrong: bearer(forged),
    expired: bearer(await issuer.token({ exp: now - 30 })),
    malformed: [
      ...malformedTokens(valid),
      await issuer.token({ aud: 'another-client' }),
      await issuer.token({ groups: [1, 2] }),
      await issuer.token({ sub: undefined }),
    ].map(bearer),
    close: async () => {
      oidc.close();
      await issuer.close();
    },
  };
});

test('oidc: username and groups claims, prefixes, azp, required claims, key rotation', async () => {
  const issuer = await startOidcIssuer(await tls);
  try {
    const byEmail = oidcAuthenticator(options(issuer.issuer, issuer.caPem, {
      usernameClaim: 'email', groupsClaim: 'roles', groupsPrefix: '', requiredClaims: { hd: 'example.com' },
    }));
    const ok = await byEmail.authenticateToken(await issuer.token({ email: 'a@example.com', email_verified: true, roles: 'admin', hd: 'example.com' }));
    assert.deepEqual(ok.kind === 'user' ? ok.user : ok, { username: 'a@example.com', groups: ['admin'] });
    assert.equal((await byEmail.authenticateToken(await issuer.token({ email: 'a@example.com', email_verified: false, hd: 'example.com' }))).kind, 'error');
    assert.equal((await byEmail.authenticateToken(await issuer.token({ email: 'a@example.com', hd: 'other.com' }))).kind, 'error');
    byEmail.close();

    const noPrefix = oidcAuthenticator(options(issuer.issuer, issuer.caPem, { usernamePrefix: '-' }));
    const azp = await noPrefix.authenticateToken(await issuer.token({ aud: 'other-client', azp: 'svc-client' }));
    assert.deepEqual(azp.kind === 'user' ? azp.user.username : azp, 'alice', 'azp names the client');
    const fetches = issuer.keyFetches;
    await issuer.rotate();
    const rotated = await noPrefix.authenticateToken(await issuer.token({}));
    assert.equal(rotated.kind, 'user', 'an unknown key id refetches the keys');
    assert.equal(issuer.keyFetches, fetches + 1);
    assert.deepEqual(await noPrefix.authenticateToken(await issuer.token({ iss: 'https://other.example' })), { kind: 'none' });
    noPrefix.close();

    const prefixed = oidcAuthenticator(options(issuer.issuer, issuer.caPem, { usernamePrefix: 'oidc:' }));
    const p = await prefixed.authenticateToken(await issuer.token({}));
    assert.equal(p.kind === 'user' ? p.user.username : '', 'oidc:alice');
    prefixed.close();

    // Without the issuer's CA the TLS handshake fails: nothing authenticates.
    const untrusting = oidcAuthenticator({ ...options(issuer.issuer, (await testTls('unrelated')).ca.certPem) });
    assert.equal((await untrusting.authenticateToken(await issuer.token({}))).kind, 'error');
    untrusting.close();
  } finally {
    await issuer.close();
  }
});

test('oidc: settings are checked at start', () => {
  assert.match(validateOidcOptions(options('http://example.com', '')) ?? '', /https/);
  assert.match(validateOidcOptions(options('https://example.com', '', { clientId: '' })) ?? '', /client-id/);
  assert.match(validateOidcOptions(options('https://example.com', '', { signingAlgs: ['none'] })) ?? '', /unsupported/);
  assert.equal(validateOidcOptions(options('https://example.com', '')), undefined);
});
