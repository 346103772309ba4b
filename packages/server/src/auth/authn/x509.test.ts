import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { testTls } from '../../testing/auth-fixtures.js';
import { requestWith, runAuthenticatorSuite } from './authenticator-suite.js';
import { fileCaBundle } from './ca-bundle.js';
import { x509Authenticator } from './x509.js';

const der = (pem: string): Buffer => new X509Certificate(pem).raw;
const tls = testTls('x509-suite');
const other = testTls('other-ca');

runAuthenticatorSuite('x509', async () => {
  const t = await tls;
  const good = await t.client('jane', ['dev', 'ops']);
  const expired = await t.client('old', [], -1);
  const foreign = await (await other).client('jane');
  return {
    authenticator: x509Authenticator([t.ca.certPem]),
    valid: requestWith({}, [der(good.certPem)]),
    expected: { username: 'jane', groups: ['dev', 'ops', 'system:authenticated'] },
    wrong: requestWith({}, [der(foreign.certPem)]),
    expired: requestWith({}, [der(expired.certPem)]),
    malformed: [
      requestWith({}, [Buffer.from('not a certificate')]),
      requestWith({}, [der(good.certPem).subarray(0, 100)]),
      // A serving certificate does not allow client authentication.
      requestWith({}, [der(t.serving.certPem)]),
    ],
  };
});

test('x509: the client CA file is reloaded when it changes, and a broken file keeps the old bundle', async (t) => {
  const [a, b] = [await tls, await other];
  const dir = tempDir(t, 'x509-reload-');
  const path = join(dir, 'ca.crt');
  writeFileSync(path, a.ca.certPem);
  const bundle = fileCaBundle(path, { intervalMs: 20 });
  assert.ok(bundle.ok);
  if (!bundle.ok) return;
  const authn = x509Authenticator(bundle.value);
  const fromB = requestWith({}, [der((await b.client('bob')).certPem)]);
  const fromA = requestWith({}, [der((await a.client('amy')).certPem)]);
  assert.equal((await authn.authenticate(fromB)).kind, 'error');
  assert.equal((await authn.authenticate(fromA)).kind, 'user');
  let changes = 0;
  bundle.value.onChange(() => changes++);
  writeFileSync(path, b.ca.certPem + '\n');
  const deadline = Date.now() + 5000;
  while (changes === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.equal(changes, 1, 'the watcher saw the change');
  assert.equal((await authn.authenticate(fromB)).kind, 'user');
  assert.equal((await authn.authenticate(fromA)).kind, 'error');
  writeFileSync(path, 'garbage');
  assert.equal(bundle.value.reload(), false);
  assert.equal((await authn.authenticate(fromB)).kind, 'user', 'a broken file keeps the previous bundle');
  bundle.value.close();
});
