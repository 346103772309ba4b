import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bearerTokenAuthenticator } from './bearer-token.js';
import { tokenAuthenticatorUnion } from './authenticator.js';
import { bearer, malformedTokens, runAuthenticatorSuite } from './authenticator-suite.js';
import { parseCsv, parseTokenFile, staticTokenAuthenticator } from './static-token.js';

runAuthenticatorSuite('static token file', async () => {
  const table = parseTokenFile('secret-token-1,alice,uid-1,"dev,ops"\n');
  assert.ok(table.ok);
  return {
    authenticator: bearerTokenAuthenticator(tokenAuthenticatorUnion([staticTokenAuthenticator(table.ok ? table.value : new Map())])),
    valid: bearer('secret-token-1'),
    expected: { username: 'alice', uid: 'uid-1', groups: ['dev', 'ops', 'system:authenticated'] },
    wrong: bearer('secret-token-2'),
    expired: 'static tokens last until the server restarts',
    malformed: malformedTokens().map(bearer),
  };
});

test('token file: CSV as kube-apiserver reads it', () => {
  const t = parseTokenFile([
    'tok1,user1,uid1',
    ' tok2, user2 ,uid2,"g1, g2,g3",ignored',
    ',nobody,uid0',
    '"to,k3",user3,uid3,',
    '',
  ].join('\r\n'));
  assert.ok(t.ok, JSON.stringify(t));
  if (!t.ok) return;
  assert.deepEqual(t.value.get('tok1'), { username: 'user1', uid: 'uid1', groups: [] });
  assert.deepEqual(t.value.get('tok2'), { username: 'user2 ', uid: 'uid2', groups: ['g1', 'g2', 'g3'] });
  assert.deepEqual(t.value.get('to,k3'), { username: 'user3', uid: 'uid3', groups: [] });
  assert.equal(t.value.has(''), false, 'empty tokens are skipped');
  const short = parseTokenFile('tok,user\n');
  assert.equal(short.ok, false);
  assert.match(short.ok ? '' : short.error, /at least 3 columns/);
  assert.equal(parseCsv('"unterminated,a,b').ok, false);
  assert.deepEqual(parseCsv('a,"b ""q"" c"\n'), { ok: true, value: [['a', 'b "q" c']] });
});
