import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { kubeconfigPath, loadKubeconfig, parseKubeconfig, resolveContext } from './kubeconfig.js';

const b64 = (s: string): string => Buffer.from(s).toString('base64');

const inline = `
apiVersion: v1
kind: Config
clusters:
- name: c1
  cluster:
    server: https://127.0.0.1:6443/
    certificate-authority-data: ${b64('CA PEM')}
- name: c2
  cluster:
    server: https://10.0.0.1:443
    insecure-skip-tls-verify: true
users:
- name: admin
  user:
    client-certificate-data: ${b64('CERT PEM')}
    client-key-data: ${b64('KEY PEM')}
- name: bob
  user:
    token: abc
contexts:
- name: main
  context: { cluster: c1, user: admin }
- name: other
  context: { cluster: c2, user: bob, namespace: team }
current-context: main
`;

test('parses inline data and resolves the current context', () => {
  const kc = parseKubeconfig(inline, '/nowhere');
  assert.ok(kc.ok);
  const conn = resolveContext(kc.value);
  assert.ok(conn.ok, conn.ok ? '' : conn.error);
  assert.equal(conn.value.server, 'https://127.0.0.1:6443');
  assert.equal(conn.value.ca?.toString(), 'CA PEM');
  assert.equal(conn.value.cert?.toString(), 'CERT PEM');
  assert.equal(conn.value.key?.toString(), 'KEY PEM');
  assert.equal(conn.value.namespace, 'default');
  assert.equal(conn.value.insecureSkipTlsVerify, undefined);
  assert.equal(conn.value.token, undefined);
});

test('resolves a named context with token, namespace and insecure-skip-tls-verify', () => {
  const kc = parseKubeconfig(inline, '/nowhere');
  assert.ok(kc.ok);
  const conn = resolveContext(kc.value, 'other');
  assert.ok(conn.ok);
  assert.equal(conn.value.token, 'abc');
  assert.equal(conn.value.namespace, 'team');
  assert.equal(conn.value.insecureSkipTlsVerify, true);
  assert.equal(conn.value.ca, undefined);
});

test('reports missing contexts, clusters and users', () => {
  const kc = parseKubeconfig(inline, '/nowhere');
  assert.ok(kc.ok);
  const missing = resolveContext(kc.value, 'nope');
  assert.deepEqual(missing, { ok: false, error: 'context "nope" does not exist' });
  const broken = parseKubeconfig('contexts: [{name: x, context: {cluster: gone, user: u}}]\ncurrent-context: x', '/');
  assert.ok(broken.ok);
  const r = resolveContext(broken.value);
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : r.error, /cluster "gone"/);
  const none = parseKubeconfig('', '/');
  assert.ok(none.ok);
  assert.equal(resolveContext(none.value).ok, false);
  assert.equal(parseKubeconfig('clusters: 5', '/').ok, false);
  assert.equal(parseKubeconfig('a: [', '/').ok, false);
});

test('reads file references relative to the kubeconfig directory, and $KUBECONFIG', (t) => {
  const dir = tempDir(t, 'kc-');
  writeFileSync(join(dir, 'ca.crt'), 'FILE CA');
  writeFileSync(join(dir, 'client.crt'), 'FILE CERT');
  writeFileSync(join(dir, 'client.key'), 'FILE KEY');
  writeFileSync(join(dir, 'token'), 'tok\n');
  writeFileSync(join(dir, 'config'), `
clusters: [{name: c, cluster: {server: 'https://h:1', certificate-authority: ca.crt}}]
users:
- {name: u, user: {client-certificate: client.crt, client-key: ${join(dir, 'client.key')}}}
- {name: t, user: {tokenFile: token}}
contexts: [{name: x, context: {cluster: c, user: u}}, {name: y, context: {cluster: c, user: t}}]
current-context: x
`);
  const conn = loadKubeconfig({ env: { KUBECONFIG: `${join(dir, 'config')}:/other` } });
  assert.ok(conn.ok, conn.ok ? '' : conn.error);
  assert.equal(conn.value.ca?.toString(), 'FILE CA');
  assert.equal(conn.value.cert?.toString(), 'FILE CERT');
  assert.equal(conn.value.key?.toString(), 'FILE KEY');
  const tok = loadKubeconfig({ path: join(dir, 'config'), context: 'y' });
  assert.ok(tok.ok);
  assert.equal(tok.value.token, 'tok');
  writeFileSync(join(dir, 'bad'), 'clusters: [{name: c, cluster: {server: s, certificate-authority: missing.crt}}]\ncontexts: [{name: x, context: {cluster: c}}]\ncurrent-context: x');
  const bad = loadKubeconfig({ path: join(dir, 'bad') });
  assert.equal(bad.ok, false);
  assert.match(bad.ok ? '' : bad.error, /missing\.crt/);
});

test('default path is ~/.kube/config', () => {
  assert.equal(kubeconfigPath(undefined, { HOME: '/home/u' }), join('/home/u', '.kube', 'config'));
  assert.equal(kubeconfigPath('/x', { KUBECONFIG: '/y' }), '/x');
});
