import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { kubeconfigPath, loadKubeconfig, parseKubeconfig, readKubeconfig, resolveContext } from './kubeconfig.js';

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

test('$KUBECONFIG files merge as client-go merges them: first definition of a name wins, missing files are skipped', (t) => {
  const dir = tempDir(t, 'kc-merge-');
  mkdirSync(join(dir, 'a'));
  mkdirSync(join(dir, 'b'));
  writeFileSync(join(dir, 'a', 'config'), `
clusters: [{name: shared, cluster: {server: 'https://first:1', certificate-authority: ca.crt}}]
users: [{name: u, user: {token: first}}]
contexts: [{name: one, context: {cluster: shared, user: u}}]
`);
  writeFileSync(join(dir, 'a', 'ca.crt'), 'CA OF A');
  writeFileSync(join(dir, 'b', 'config'), `
clusters:
- {name: shared, cluster: {server: 'https://second:2'}}
- {name: own, cluster: {server: 'https://own:3', proxy-url: 'http://proxy:8080', tls-server-name: api.internal}}
users: [{name: u, user: {token: second}}, {name: v, user: {tokenFile: tok}}]
contexts: [{name: one, context: {cluster: own, user: v}}, {name: two, context: {cluster: own, user: v, namespace: team}}]
current-context: two
`);
  writeFileSync(join(dir, 'b', 'tok'), 'from-b\n');
  const env = { KUBECONFIG: [join(dir, 'a', 'config'), join(dir, 'missing'), join(dir, 'b', 'config'), join(dir, 'a', 'config')].join(delimiter) };
  const kc = readKubeconfig({ env });
  assert.ok(kc.ok, kc.ok ? '' : kc.error);
  assert.equal(kc.value.currentContext, 'two');
  assert.deepEqual(kc.value.files, [join(dir, 'a', 'config'), join(dir, 'b', 'config')]);
  assert.deepEqual(kc.value.clusters.map((c) => [c.name, c.server]), [['shared', 'https://first:1'], ['own', 'https://own:3']]);
  const two = resolveContext(kc.value);
  assert.ok(two.ok, two.ok ? '' : two.error);
  assert.equal(two.value.namespace, 'team');
  // the token file is read relative to the file that defined the user
  assert.equal(two.value.token, 'from-b');
  assert.equal(two.value.proxyUrl, 'http://proxy:8080');
  assert.equal(two.value.tlsServerName, 'api.internal');
  const one = loadKubeconfig({ env, context: 'one', namespace: 'override' });
  assert.ok(one.ok, one.ok ? '' : one.error);
  assert.equal(one.value.server, 'https://first:1');
  assert.equal(one.value.ca?.toString(), 'CA OF A');
  assert.equal(one.value.token, 'first');
  assert.equal(one.value.namespace, 'override');
  // an explicit file must exist; the default one may be absent
  assert.equal(loadKubeconfig({ path: join(dir, 'missing') }).ok, false);
  const empty = readKubeconfig({ env: { HOME: dir } });
  assert.ok(empty.ok);
  assert.equal(empty.value.contexts.length, 0);
  assert.equal(kubeconfigPath(undefined, env), join(dir, 'a', 'config'));
});

test('user.exec is parsed and checked; v1 requires interactiveMode, v1beta1 defaults it', () => {
  const kc = (exec: string): ReturnType<typeof parseKubeconfig> => parseKubeconfig(`
clusters: [{name: c, cluster: {server: 'https://h:1', certificate-authority-data: ${b64('CA')}, extensions: [{name: client.authentication.svc.io/exec, extension: {audience: x}}]}}]
users: [{name: u, user: {exec: ${exec}}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`, '/conf');
  const good = kc('{command: ./bin/plugin, args: [a], env: [{name: K, value: V}], apiVersion: client.authentication.svc.io/v1, interactiveMode: Never, installHint: get it, provideClusterInfo: true}');
  assert.ok(good.ok, good.ok ? '' : good.error);
  const conn = resolveContext(good.value);
  assert.ok(conn.ok);
  assert.deepEqual(conn.value.exec, {
    config: { command: './bin/plugin', args: ['a'], env: [{ name: 'K', value: 'V' }], apiVersion: 'client.authentication.svc.io/v1', provideClusterInfo: true, interactiveMode: 'Never', installHint: 'get it' },
    baseDir: '/conf',
    cluster: { server: 'https://h:1', certificateAuthorityData: b64('CA'), config: { audience: 'x' } },
  });
  const beta = kc('{command: p, apiVersion: client.authentication.k8s.io/v1beta1}');
  assert.ok(beta.ok);
  assert.equal(beta.value.users[0]?.exec?.interactiveMode, 'IfAvailable');
  const noMode = kc('{command: p, apiVersion: client.authentication.svc.io/v1}');
  assert.deepEqual(noMode, { ok: false, error: 'user "u": exec: interactiveMode must be specified to use an exec authentication plugin' });
  assert.match(JSON.stringify(kc('{command: p, apiVersion: v1, interactiveMode: Sometimes}')), /invalid interactiveMode/);
  assert.match(JSON.stringify(kc('{apiVersion: client.authentication.svc.io/v1, interactiveMode: Never}')), /command must be specified/);
  assert.match(JSON.stringify(kc('{command: p, interactiveMode: Never}')), /apiVersion must be specified/);
  assert.match(JSON.stringify(kc('{command: p, apiVersion: v1, interactiveMode: Never, env: [{value: x}]}')), /env variable name/);
});
