import { test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { testTls } from '../../testing/auth-fixtures.js';
import { authenticatorUnion } from './authenticator.js';
import { requestWith, runAuthenticatorSuite } from './authenticator-suite.js';
import { staticCaBundle } from './ca-bundle.js';
import { requestHeaderAuthenticator } from './request-header.js';
import { x509Authenticator } from './x509.js';

const der = (pem: string): Buffer => new X509Certificate(pem).raw;
const proxyCa = testTls('front-proxy-ca');
const userCa = testTls('user-ca');

async function proxyAuthenticator() {
  return requestHeaderAuthenticator({
    bundle: staticCaBundle((await proxyCa).ca.certPem),
    allowedNames: ['front-proxy'],
    usernameHeaders: ['X-Remote-User'],
    groupHeaders: ['X-Remote-Group'],
    extraHeaderPrefixes: ['X-Remote-Extra-'],
  });
}

runAuthenticatorSuite('request header', async () => {
  const p = await proxyCa;
  const proxyCert = der((await p.client('front-proxy')).certPem);
  const headers = { 'x-remote-user': 'pat', 'x-remote-group': 'devs' };
  return {
    authenticator: await proxyAuthenticator(),
    valid: requestWith(headers, [proxyCert]),
    expected: { username: 'pat', groups: ['devs'] },
    wrong: requestWith(headers, [der((await p.client('not-the-proxy')).certPem)]),
    expired: requestWith(headers, [der((await p.client('front-proxy', [], -1)).certPem)]),
    malformed: [
      requestWith(headers, [Buffer.from('garbage')]),
      requestWith(headers, [der((await (await userCa).client('front-proxy')).certPem)]),
    ],
  };
});

test('request header: repeated groups, extras decoded, and a user certificate is not a proxy', async () => {
  const p = await proxyCa;
  const u = await userCa;
  const proxyCert = der((await p.client('front-proxy')).certPem);
  const authn = await proxyAuthenticator();
  const r = await authn.authenticate({
    headers: {},
    rawHeaders: ['X-Remote-User', 'pat', 'X-Remote-Group', 'a, b', 'X-Remote-Group', 'c', 'X-Remote-Extra-Acme.com%2Fproject', 'p1', 'x-remote-extra-acme.com%2fproject', 'p2'],
    clientCertificates: [proxyCert],
  });
  assert.deepEqual(r.kind === 'user' ? r.user : r, { username: 'pat', groups: ['a, b', 'c'], extra: { 'acme.com/project': ['p1', 'p2'] } });
  // A proxy that names nobody falls through.
  assert.deepEqual(await authn.authenticate(requestWith({}, [proxyCert])), { kind: 'none' });
  // A user's own certificate with proxy headers: the headers are ignored, the certificate names the user.
  const union = authenticatorUnion([authn, x509Authenticator([u.ca.certPem])]);
  const asUser = await union.authenticate(requestWith({ 'x-remote-user': 'root' }, [der((await u.client('ursula')).certPem)]));
  assert.equal(asUser.kind === 'user' ? asUser.user.username : '', 'ursula');
  assert.deepEqual(authn.headerNamesToStrip(['x-remote-extra-foo', 'accept']), ['x-remote-user', 'x-remote-group', 'x-remote-extra-foo']);
});
