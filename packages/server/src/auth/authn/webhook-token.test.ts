import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namesFor } from '@svc-apiserver/api';
import { startTokenWebhook, testTls, type WebhookAnswer } from '../../testing/auth-fixtures.js';
import { bearerTokenAuthenticator } from './bearer-token.js';
import { tokenAuthenticatorUnion } from './authenticator.js';
import { bearer, malformedTokens, runAuthenticatorSuite } from './authenticator-suite.js';
import { loadWebhookConnection } from '../../outbound/webhook-connection.js';
import { parseWebhookVersion, webhookTokenAuthenticator } from './webhook-token.js';

const names = namesFor('svc');
const tls = testTls('webhook-ca');

const answer: WebhookAnswer = (token, audiences) => {
  if (token === 'good-token') return { authenticated: true, user: { username: 'wendy', uid: 'w-1', groups: ['hooked'], extra: { scopes: ['a', 'b'] } } };
  if (token === 'expired-token') return { authenticated: false, error: 'token expired at noon' };
  if (token === 'vault-token') return { authenticated: true, user: { username: 'v' }, audiences: (audiences ?? []).filter((a) => a === 'vault') };
  return { authenticated: false };
};

async function connectionFile(text: string): Promise<{ path: string; done: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-'));
  const path = join(dir, 'webhook.kubeconfig');
  writeFileSync(path, text);
  return { path, done: () => rmSync(dir, { recursive: true, force: true }) };
}

runAuthenticatorSuite('webhook token', async () => {
  const hook = await startTokenWebhook(await tls, answer);
  const file = await connectionFile(hook.kubeconfig());
  const conn = loadWebhookConnection(file.path);
  assert.ok(conn.ok, JSON.stringify(conn));
  const authn = webhookTokenAuthenticator({ names, connection: conn.ok ? conn.value : (undefined as never), version: 'v1beta1', cacheTtlMs: 120_000, apiAudiences: ['api'] });
  return {
    authenticator: bearerTokenAuthenticator(tokenAuthenticatorUnion([authn])),
    valid: bearer('good-token'),
    expected: { username: 'wendy', uid: 'w-1', groups: ['hooked', 'system:authenticated'] },
    wrong: bearer('bad-token'),
    expired: bearer('expired-token'),
    malformed: malformedTokens().map(bearer),
    close: async () => {
      file.done();
      await hook.close();
    },
  };
});

test('webhook token: TokenReview version, audiences, cache, credentials, error surfaced', async () => {
  const hook = await startTokenWebhook(await tls, answer);
  const file = await connectionFile(hook.kubeconfig('webhook-secret'));
  try {
    const conn = loadWebhookConnection(file.path);
    assert.ok(conn.ok);
    if (!conn.ok) return;
    const authn = webhookTokenAuthenticator({ names, connection: conn.value, version: 'v1', cacheTtlMs: 60_000, apiAudiences: ['api'] });
    const first = await authn.authenticateToken('good-token');
    assert.equal(first.kind, 'user');
    assert.deepEqual(first.kind === 'user' ? first.user.extra : undefined, { scopes: ['a', 'b'] });
    await authn.authenticateToken('good-token');
    await authn.authenticateToken('bad-token');
    await authn.authenticateToken('bad-token');
    assert.equal(hook.reviews.length, 2, 'successes and denials are cached');
    assert.equal(hook.reviews[0]!.apiVersion, 'authentication.svc.io/v1');
    assert.deepEqual(hook.reviews[0]!.spec, { token: 'good-token', audiences: ['api'] });
    assert.equal(hook.reviews[0]!.authorization, 'Bearer webhook-secret');
    const err = await authn.authenticateToken('expired-token');
    assert.deepEqual(err, { kind: 'error', message: 'token expired at noon' });
    await authn.authenticateToken('expired-token');
    assert.equal(hook.reviews.length, 4, 'answers with an error are not cached');
    const vault = await authn.authenticateToken('vault-token', ['vault', 'x']);
    assert.deepEqual(vault.kind === 'user' ? vault.audiences : vault, ['vault']);
    assert.deepEqual(await authn.authenticateToken('vault-token', ['x']), { kind: 'none' });
    // An answer without audiences is valid for the API server's audiences only.
    const good = await authn.authenticateToken('good-token', ['api', 'x']);
    assert.deepEqual(good.kind === 'user' ? good.audiences : good, ['api']);
    assert.equal(parseWebhookVersion('authentication.k8s.io/v1beta1'), 'v1beta1');
    assert.equal(parseWebhookVersion('v2'), undefined);
  } finally {
    file.done();
    await hook.close();
  }
});

test('webhook token: an unreachable or untrusted webhook is an error, not a crash', async () => {
  const hook = await startTokenWebhook(await tls, answer);
  const other = await testTls('other');
  const file = await connectionFile(hook.kubeconfig().replace(Buffer.from((await tls).ca.certPem).toString('base64'), Buffer.from(other.ca.certPem).toString('base64')));
  try {
    const conn = loadWebhookConnection(file.path);
    assert.ok(conn.ok);
    if (!conn.ok) return;
    const authn = webhookTokenAuthenticator({ names, connection: conn.value, version: 'v1beta1', cacheTtlMs: 0, apiAudiences: [] });
    assert.equal((await authn.authenticateToken('good-token')).kind, 'error');
    assert.equal(hook.reviews.length, 0);
    const missing = await connectionFile('apiVersion: v1\nkind: Config\nclusters: []\n');
    assert.match(JSON.stringify(loadWebhookConnection(missing.path)), /current context is required/);
    missing.done();
  } finally {
    file.done();
    await hook.close();
  }
});
