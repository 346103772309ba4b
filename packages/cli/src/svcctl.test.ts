/**
 * svcctl's verbs against a real server started in-process, and beside kubectl's output where kubectl is present.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { webcrypto } from 'node:crypto';
import { parse } from 'yaml';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { findKubectls, runKubectl } from '@svc-apiserver/testing/kubectl';
import { startTestServer, type TestServer } from '@svc-apiserver/test-server';
import { run } from './cli.js';

let server: TestServer;
const dir = tempDir({ after }, 'svcctl-it-');
// the 1.27 kubectl when present: the release whose output the server's contract follows
const kubectls = findKubectls(['1.27']);
const kubectl = kubectls.find((k) => k.label === 'kubectl.1.27') ?? kubectls[0];

before(async () => {
  // SelfSubjectReview (auth whoami) is beta in 1.27 and served only when enabled, as there
  server = await startTestServer({ server: { runtimeConfig: ['authentication.svc.io/v1beta1=true'] } });
  await server.createNamespace('it');
});
after(() => server?.stop());

type Out = { code: number; out: string; err: string };

async function svcctl(argv: string[], options: { signal?: AbortSignal; kubeconfig?: string; env?: NodeJS.ProcessEnv; stdin?: string } = {}): Promise<Out> {
  let out = '';
  let err = '';
  const code = await run(['--kubeconfig', options.kubeconfig ?? server.kubeconfigPath, ...argv], {
    stdout: (t) => { out += t; }, stderr: (t) => { err += t; }, readStdin: async () => options.stdin ?? '', env: options.env ?? {},
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { code, out, err };
}

async function ok(...argv: string[]): Promise<string> {
  const r = await svcctl(argv);
  assert.equal(r.code, 0, `svcctl ${argv.join(' ')}: ${r.err}`);
  return r.out;
}

const noAge = (text: string): string => text.replace(/\b\d+(s|m)\b/g, '<age>');

test('create -f with several documents and a directory, namespace, configmap, secret generic; get in every format', async () => {
  const d = join(dir, 'manifests');
  mkdirSync(join(d, 'sub'), { recursive: true });
  writeFileSync(join(d, 'a.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: one, labels: {tier: web}}\ndata: {k: v}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: two, labels: {tier: db}}\n');
  writeFileSync(join(d, 'sub', 'b.json'), JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'three' } }));
  assert.equal(await ok('-n', 'it', 'create', '-f', d), 'configmap/one created\nconfigmap/two created\n', 'no recursion without -R');
  assert.equal(await ok('-n', 'it', 'create', '-f', join(d, 'sub')), 'configmap/three created\n');
  assert.equal(await ok('create', 'namespace', 'other'), 'namespace/other created\n');
  assert.equal(await ok('-n', 'it', 'create', 'configmap', 'lit', '--from-literal=a=1', '--from-literal=b=2'), 'configmap/lit created\n');
  assert.equal(await ok('-n', 'it', 'create', 'secret', 'generic', 'sec', '--from-literal=password=hunter2'), 'secret/sec created\n');
  const secret = JSON.parse(await ok('-n', 'it', 'get', 'secret', 'sec', '-o', 'json')) as { data: Record<string, string>; type: string };
  assert.deepEqual([secret.data.password, secret.type], [Buffer.from('hunter2').toString('base64'), 'Opaque']);
  const again = await svcctl(['-n', 'it', 'create', 'configmap', 'lit']);
  assert.deepEqual([again.code, again.err], [1, 'Error from server (AlreadyExists): configmaps "lit" already exists\n']);

  const tableOut = await ok('-n', 'it', 'get', 'configmaps', '-l', 'tier');
  assert.match(tableOut, /^NAME +DATA +AGE\none +1 +\d+s\ntwo +0 +\d+s\n$/, 'the server\'s columns');
  assert.match(await ok('-n', 'it', 'get', 'cm', 'one', '--show-labels'), /^NAME +DATA +AGE +LABELS\none +1 +\d+s +tier=web\n$/);
  assert.match(await ok('get', 'cm', '-A', '-l', 'tier=db'), /^NAMESPACE +NAME +DATA +AGE\nit +two +0 +\d+s\n$/);
  assert.equal(await ok('-n', 'it', 'get', 'cm', '-l', 'tier', '-o', 'name'), 'configmap/one\nconfigmap/two\n');
  assert.equal(await ok('-n', 'it', 'get', 'cm', '--field-selector', 'metadata.name=three', '-o', 'name'), 'configmap/three\n');
  assert.equal(await ok('-n', 'it', 'get', 'cm', '-l', 'tier', '-o', 'jsonpath={range .items[*]}{.metadata.name}={.metadata.labels.tier}{"\\n"}{end}'), 'one=web\ntwo=db\n');
  assert.equal(await ok('-n', 'it', 'get', 'cm', 'one', '-o', 'jsonpath={.data.k}'), 'v');
  assert.match(await ok('-n', 'it', 'get', 'cm', '-l', 'tier', '-o', 'custom-columns=NAME:.metadata.name,TIER:.metadata.labels.tier,MISSING:.spec'), /^NAME +TIER +MISSING\none +web +<none>\ntwo +db +<none>\n$/);
  const y = parse(await ok('-n', 'it', 'get', 'configmap/one', '-o', 'yaml')) as { kind: string; data: { k: string }; metadata: { managedFields?: unknown } };
  assert.deepEqual([y.kind, y.data.k], ['ConfigMap', 'v']);
  assert.equal(y.metadata.managedFields, undefined, 'managedFields are left out as kubectl leaves them out');
  const shown = parse(await ok('-n', 'it', 'get', 'configmap/one', '-o', 'yaml', '--show-managed-fields')) as { metadata: { managedFields?: unknown[] } };
  assert.ok((shown.metadata.managedFields?.length ?? 0) > 0, 'shown with --show-managed-fields');
  const list = JSON.parse(await ok('-n', 'it', 'get', 'cm', '-l', 'tier', '-o', 'json')) as { kind: string; items: Array<{ kind: string; metadata: { managedFields?: unknown } }> };
  assert.deepEqual([list.kind, list.items.map((i) => i.kind)], ['List', ['ConfigMap', 'ConfigMap']]);
  assert.ok(list.items.every((i) => i.metadata.managedFields === undefined));
  assert.match(await ok('get', 'ns', 'it', '-o', 'wide'), /^NAME +STATUS +AGE\nit +Active +\d+s\n$/);
  const none = await svcctl(['-n', 'other', 'get', 'cm', '-l', 'nothing']);
  assert.deepEqual([none.code, none.out, none.err], [0, '', 'No resources found in other namespace.\n']);
  const missing = await svcctl(['-n', 'it', 'get', 'cm', 'nope']);
  assert.deepEqual([missing.code, missing.err], [1, 'Error from server (NotFound): configmaps "nope" not found\n']);
  const badType = await svcctl(['get', 'widgets']);
  assert.deepEqual([badType.code, badType.err], [1, 'error: the server doesn\'t have a resource type "widgets"\n']);

});

test('get -w prints the list, then each change, until stopped', async () => {
  await ok('-n', 'it', 'create', 'configmap', 'watched');
  const stop = new AbortController();
  const watching = svcctl(['-n', 'it', 'get', 'cm', '--field-selector=metadata.name=watched', '-w'], { signal: stop.signal });
  await new Promise((r) => setTimeout(r, 300));
  await ok('-n', 'it', 'label', 'cm', 'watched', 'x=y');
  await new Promise((r) => setTimeout(r, 300));
  stop.abort();
  const r = await watching;
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^NAME +DATA +AGE\nwatched +0 +\d+s\nwatched +0 +\d+s\n$/);
  const stopJson = new AbortController();
  const json = svcctl(['-n', 'it', 'get', 'cm', 'x', '--field-selector=metadata.name=watched', '-w', '--watch-only', '-o', 'name'].filter((a) => a !== 'x'), { signal: stopJson.signal });
  await new Promise((r) => setTimeout(r, 300));
  await ok('-n', 'it', 'delete', 'cm', 'watched');
  await new Promise((r) => setTimeout(r, 300));
  stopJson.abort();
  assert.equal((await json).out, 'configmap/watched\n');
});

test('apply: client-side with the last-applied annotation, then server-side; replace; patch of each type', async () => {
  const f = join(dir, 'apply.yaml');
  writeFileSync(f, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied, namespace: it}\ndata: {a: "1", b: "2"}\n');
  assert.equal(await ok('apply', '-f', f), 'configmap/applied created\n');
  assert.equal(await ok('apply', '-f', f), 'configmap/applied unchanged\n');
  await ok('-n', 'it', 'patch', 'cm', 'applied', '--type', 'merge', '-p', '{"data":{"other":"kept"}}');
  writeFileSync(f, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: applied, namespace: it}\ndata: {a: "10"}\n');
  assert.equal(await ok('apply', '-f', f), 'configmap/applied configured\n');
  const cm = JSON.parse(await ok('-n', 'it', 'get', 'cm', 'applied', '-o', 'json')) as { data: Record<string, string>; metadata: { annotations: Record<string, string> } };
  assert.deepEqual(cm.data, { a: '10', other: 'kept' }, 'b dropped from the file is deleted; fields others set stay');
  assert.deepEqual(JSON.parse(cm.metadata.annotations['kubectl.svc.io/last-applied-configuration'] ?? '{}').data, { a: '10' });

  writeFileSync(f, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ssa, namespace: it}\ndata: {a: "1"}\n');
  assert.equal(await ok('apply', '--server-side', '--field-manager=me', '-f', f), 'configmap/ssa serverside-applied\n');
  writeFileSync(f, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ssa, namespace: it}\ndata: {a: "2"}\n');
  const conflict = await svcctl(['apply', '--server-side', '--field-manager=you', '-f', f]);
  assert.equal(conflict.code, 1);
  assert.match(conflict.err, /^Error from server \(Conflict\): .*conflict/i);
  assert.equal(await ok('apply', '--server-side', '--field-manager=you', '--force-conflicts', '-f', f), 'configmap/ssa serverside-applied\n');

  writeFileSync(f, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ssa, namespace: it}\ndata: {replaced: "yes"}\n');
  assert.equal(await ok('replace', '-f', f), 'configmap/ssa replaced\n');
  assert.equal(await ok('-n', 'it', 'patch', 'cm', 'ssa', '-p', '{"data":{"s":"1"}}'), 'configmap/ssa patched\n');
  assert.equal(await ok('-n', 'it', 'patch', 'cm', 'ssa', '--type=json', '-p', '[{"op":"remove","path":"/data/replaced"}]'), 'configmap/ssa patched\n');
  assert.equal(await ok('-n', 'it', 'patch', 'cm/ssa', '--type=merge', '-p', 'data: {s: "1"}'), 'configmap/ssa patched (no change)\n');
  assert.equal(await ok('-n', 'it', 'get', 'cm', 'ssa', '-o', 'jsonpath={.data}'), '{"s":"1"}');
  const bad = await svcctl(['-n', 'it', 'patch', 'cm', 'ssa', '--type=json', '-p', '[{"op":"test","path":"/data/s","value":"2"}]']);
  assert.equal(bad.code, 1);
});

test('label, annotate, scale, wait, delete with its flags', async () => {
  await ok('-n', 'it', 'create', 'configmap', 'meta');
  assert.equal(await ok('-n', 'it', 'label', 'cm', 'meta', 'a=1', 'b=2'), 'configmap/meta labeled\n');
  const clash = await svcctl(['-n', 'it', 'label', 'cm', 'meta', 'a=9']);
  assert.deepEqual([clash.code, clash.err], [1, "error: 'a' already has a value (1), and --overwrite is false\n"]);
  assert.equal(await ok('-n', 'it', 'label', 'cm/meta', 'a=9', 'b-', '--overwrite'), 'configmap/meta labeled\n');
  assert.equal(await ok('-n', 'it', 'annotate', 'cm', 'meta', 'note=hello'), 'configmap/meta annotate\n');
  assert.equal(await ok('-n', 'it', 'get', 'cm', 'meta', '-o', 'jsonpath={.metadata.labels} {.metadata.annotations.note}'), '{"a":"9"} hello');

  const apps = { group: 'apps', version: 'v1', resource: 'deployments', namespace: 'it' };
  const deployment = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 1, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
  assert.ok((await server.client.create(apps, deployment)).ok);
  assert.equal(await ok('-n', 'it', 'scale', 'deployment', 'web', '--replicas=3'), 'deployment.apps/web scaled\n');
  assert.equal(await ok('-n', 'it', 'get', 'deploy', 'web', '-o', 'jsonpath={.spec.replicas}'), '3');
  const wrong = await svcctl(['-n', 'it', 'scale', 'deploy', 'web', '--replicas=1', '--current-replicas=2']);
  assert.deepEqual([wrong.code, wrong.err], [1, 'error: Expected replicas to be 2, was 3\n']);

  assert.equal(await ok('-n', 'it', 'wait', 'cm/meta', '--for=jsonpath={.metadata.labels.a}=9', '--timeout=5s'), 'configmap/meta condition met\n');
  const timedOut = await svcctl(['-n', 'it', 'wait', 'cm/meta', '--for=condition=Ready', '--timeout=300ms']);
  assert.deepEqual([timedOut.code, timedOut.err], [1, 'error: timed out waiting for the condition on configmaps/meta\n']);

  await ok('-n', 'it', 'create', 'configmap', 'held');
  await server.client.patch({ group: '', version: 'v1', resource: 'configmaps', namespace: 'it' }, 'held', 'merge', { metadata: { finalizers: ['example.com/hold'] } });
  const waiting = svcctl(['-n', 'it', 'wait', 'cm/held', '--for=delete', '--timeout=10s']);
  assert.equal(await ok('-n', 'it', 'delete', 'cm', 'held', '--wait=false'), 'configmap "held" deleted\n');
  await server.client.patch({ group: '', version: 'v1', resource: 'configmaps', namespace: 'it' }, 'held', 'merge', { metadata: { finalizers: null } });
  assert.equal((await waiting).out, 'configmap/held condition met\n');

  await ok('-n', 'it', 'create', 'configmap', 'gone1');
  await ok('-n', 'it', 'label', 'cm', 'gone1', 'sweep=yes');
  assert.equal(await ok('-n', 'it', 'delete', 'cm', '-l', 'sweep=yes', '--cascade=foreground', '--grace-period=0'), 'configmap "gone1" deleted\n');
  const f = join(dir, 'del.yaml');
  writeFileSync(f, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: byfile, namespace: it}\n');
  await ok('create', '-f', f);
  const forced = await svcctl(['delete', '-f', f, '--force']);
  assert.equal(forced.out, 'configmap "byfile" deleted\n');
  assert.match(forced.err, /^Warning: Immediate deletion/);
  const again = await svcctl(['delete', '-f', f]);
  assert.deepEqual([again.code, again.err], [1, 'Error from server (NotFound): configmaps "byfile" not found\n']);
  assert.equal((await svcctl(['delete', '-f', f, '--ignore-not-found'])).code, 0);
  const badCascade = await svcctl(['-n', 'it', 'delete', 'cm', 'x', '--cascade=sideways']);
  assert.equal(badCascade.code, 1);
});

test('comma-separated types: each listed, each name of each type, tables apart with kind/name, one List', async () => {
  await server.createNamespace('multi');
  const f = join(dir, 'multi.yaml');
  writeFileSync(f, ['ConfigMap', 'Secret'].map((kind) => `apiVersion: v1\nkind: ${kind}\nmetadata: {name: both, namespace: multi, labels: {set: m}}\ndata: {k: dg==}`).join('\n---\n')
    + '\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: only, namespace: multi, labels: {set: m}}\n');
  await ok('create', '-f', f);
  const tables = noAge(await ok('-n', 'multi', 'get', 'cm,secret', '-l', 'set=m'));
  assert.equal(tables, 'NAME             DATA   AGE\nconfigmap/both   1      <age>\n\nNAME          TYPE     DATA   AGE\nsecret/both   Opaque   1      <age>\nsecret/only   Opaque   0      <age>\n');
  assert.equal(await ok('-n', 'multi', 'get', 'cm,secret', 'both', '-o', 'name'), 'configmap/both\nsecret/both\n');
  assert.equal(await ok('-n', 'multi', 'get', 'cm,secrets,configmaps', '-l', 'none', '-o', 'name'), '', 'a type spelled twice is listed once');
  const list = parse(await ok('-n', 'multi', 'get', 'cm,secret', 'both', '-o', 'yaml')) as { kind: string; items: Array<{ kind: string }> };
  assert.deepEqual([list.kind, list.items.map((i) => i.kind)], ['List', ['ConfigMap', 'Secret']]);
  // a type without the object still prints the other type's, without the kind: one type was found
  const partial = await svcctl(['-n', 'multi', 'get', 'cm,secret', 'only']);
  assert.deepEqual([partial.code, noAge(partial.out), partial.err], [1, 'NAME   TYPE     DATA   AGE\nonly   Opaque   0      <age>\n', 'Error from server (NotFound): configmaps "only" not found\n']);
  const none = await svcctl(['-n', 'multi', 'get', 'cm,secret', '-l', 'absent=1']);
  assert.deepEqual([none.code, none.out, none.err], [0, '', 'No resources found in multi namespace.\n']);
  assert.equal(await ok('-n', 'multi', 'label', 'cm,secret', 'both', 'tier=web'), 'configmap/both labeled\nsecret/both labeled\n');
  assert.equal(await ok('-n', 'multi', 'get', 'cm,secret', '-l', 'tier=web', '-o', 'name'), 'configmap/both\nsecret/both\n');
  assert.equal(await ok('-n', 'multi', 'delete', 'cm,secret', '-l', 'tier=web'), 'configmap "both" deleted\nsecret "both" deleted\n');
  for (const [argv, message] of [
    [['get', 'cm,secret/both'], 'arguments in resource/name form must have a single resource and name'],
    [['get', 'cm', 'secret/both'], "there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'svcctl get resource/<resource_name>' instead of 'svcctl get resource resource/<resource_name>'"],
    [['get', 'cm/a/b'], 'arguments in resource/name form may not have more than one slash'],
    [['get', 'cm,nope'], 'the server doesn\'t have a resource type "nope"'],
    [['get', 'cm,secret', '-w'], 'you may only specify a single resource type'],
  ] as const) {
    const r = await svcctl(['-n', 'multi', ...argv]);
    assert.deepEqual([r.code, r.out, r.err], [1, '', `error: ${message}\n`], argv.join(' '));
  }
});

test('describe, explain, edit, api-resources, api-versions, version', async () => {
  await ok('-n', 'it', 'create', 'configmap', 'described', '--from-literal=key=value');
  const described = await ok('-n', 'it', 'describe', 'cm', 'described');
  // kubectl's ConfigMap layout
  assert.equal(described, 'Name:         described\nNamespace:    it\nLabels:       <none>\nAnnotations:  <none>\n\nData\n====\nkey:\n----\nvalue\n\nBinaryData\n====\n\nEvents:  <none>\n');

  const explained = await ok('explain', 'configmaps.data');
  assert.match(explained, /KIND: +ConfigMap\nVERSION: +v1\n/);
  assert.match(explained, /FIELD: data <map\[string\]string>/);
  const top = await ok('explain', 'cm');
  assert.match(top, /FIELDS:\n  apiVersion\t<string>\n/);
  assert.equal((await svcctl(['explain', 'cm.nothing'])).err, 'error: field "nothing" does not exist\n');

  const editor = join(dir, 'editor.sh');
  writeFileSync(editor, '#!/bin/sh\nsed -i \'s/key: value/key: edited/\' "$1"\n', { mode: 0o755 });
  const edited = await svcctl(['-n', 'it', 'edit', 'cm', 'described'], { env: { EDITOR: editor, PATH: process.env.PATH ?? '' } });
  assert.deepEqual([edited.code, edited.out], [0, 'configmap/described edited\n'], edited.err);
  const unchanged = await svcctl(['-n', 'it', 'edit', 'cm', 'described'], { env: { EDITOR: 'true', PATH: process.env.PATH ?? '' } });
  assert.deepEqual([unchanged.out, unchanged.err], ['', 'Edit cancelled, no changes made.\n'], 'kubectl tells it on standard error');
  assert.equal(await ok('-n', 'it', 'get', 'cm', 'described', '-o', 'jsonpath={.data.key}'), 'edited');

  const resources = await ok('api-resources');
  assert.match(resources, /^NAME +SHORTNAMES +APIVERSION +NAMESPACED +KIND\n/);
  assert.match(resources, /\nconfigmaps +cm +v1 +true +ConfigMap\n/);
  assert.match(resources, /\nleases +coordination\.svc\.io\/v1 +true +Lease\n/);
  assert.match(await ok('api-resources', '-o', 'name', '--namespaced=false'), /^(?!.*configmaps)[\s\S]*\nnamespaces\n/);
  const versions = await ok('api-versions');
  assert.ok(versions.split('\n').includes('v1') && versions.split('\n').includes('apps/v1'));
  assert.match(await ok('version'), /^Client Version: v0\.1\.0\nServer Version: v1\.27\.\d+/);
  assert.ok(JSON.parse(await ok('version', '-o', 'json')).serverVersion.gitVersion);
});

test('auth can-i and whoami, certificate approve and deny, with a user of given rights', async () => {
  const reader = await server.createUser({ name: 'reader', groups: ['team'], namespace: 'it', rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }] });
  const asReader = (...argv: string[]): Promise<Out> => svcctl(argv, { kubeconfig: reader.kubeconfigPath });
  assert.deepEqual(await asReader('auth', 'can-i', 'list', 'configmaps'), { code: 0, out: 'yes\n', err: '' });
  assert.deepEqual(await asReader('auth', 'can-i', 'delete', 'configmaps'), { code: 1, out: 'no\n', err: '' });
  assert.deepEqual((await asReader('auth', 'can-i', 'get', 'configmaps', '-n', 'default')).out, 'no\n');
  const forbidden = await asReader('create', 'configmap', 'x');
  assert.equal(forbidden.code, 1);
  assert.match(forbidden.err, /^Error from server \(Forbidden\): configmaps is forbidden: User "reader" cannot create resource "configmaps"/);
  const rules = await asReader('auth', 'can-i', '--list');
  assert.match(rules.out, /^Resources +Non-Resource URLs +Resource Names +Verbs\n/);
  assert.match(rules.out, /\nconfigmaps +\[\] +\[\] +\[get list\]\n/);
  const who = await asReader('auth', 'whoami');
  assert.match(who.out, /^ATTRIBUTE +VALUE\nUsername +reader\nGroups +\[team system:authenticated\]\n$/);

  const x509 = await import('@peculiar/x509');
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
  const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']) as webcrypto.CryptoKeyPair;
  const csrPem = (await x509.Pkcs10CertificateRequestGenerator.create({ name: 'CN=someone', keys, signingAlgorithm: alg })).toString('pem');
  const group = server.names.group('certificates');
  const csrRef = { group, version: 'v1', resource: 'certificatesigningrequests' };
  for (const name of ['to-approve', 'to-deny']) {
    const created = await server.client.create(csrRef, { apiVersion: `${group}/v1`, kind: 'CertificateSigningRequest', metadata: { name }, spec: { request: Buffer.from(csrPem).toString('base64'), signerName: server.names.name('signerApiClient'), usages: ['client auth'] } });
    assert.ok(created.ok, created.ok ? '' : created.error.message);
  }
  assert.equal(await ok('certificate', 'approve', 'to-approve'), `certificatesigningrequest.${group}/to-approve approved\n`);
  assert.equal(await ok('certificate', 'deny', 'to-deny'), `certificatesigningrequest.${group}/to-deny denied\n`);
  const approved = await server.client.get<{ status?: { conditions?: Array<{ type: string; reason: string }> } } & import('@svc-apiserver/api').KubeObject>(csrRef, 'to-approve');
  assert.ok(approved.ok && approved.value.status?.conditions?.some((c) => c.type === 'Approved' && c.reason === 'KubectlApprove'));
  assert.equal((await svcctl(['certificate', 'approve', 'nothing'])).code, 1);
});

test('create token, config view, use-context, get-contexts, set-context, completion', async () => {
  await server.client.create({ group: '', version: 'v1', resource: 'serviceaccounts', namespace: 'it' }, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } });
  const token = (await ok('-n', 'it', 'create', 'token', 'robot', '--duration=10m')).trim();
  assert.equal(token.split('.').length, 3, 'a JWT');
  const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as { exp: number; iat: number; sub: string };
  assert.deepEqual([claims.exp - claims.iat, claims.sub], [600, 'system:serviceaccount:it:robot']);
  const tokenConfig = join(dir, 'token.kubeconfig');
  writeFileSync(tokenConfig, `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: '${server.url}', certificate-authority-data: ${Buffer.from(server.server.ca).toString('base64')}}}]\nusers: [{name: robot, user: {token: ${token}}}]\ncontexts: [{name: robot, context: {cluster: c, user: robot, namespace: it}}, {name: other, context: {cluster: c, user: robot}}]\ncurrent-context: robot\n`);
  const who = await svcctl(['auth', 'whoami'], { kubeconfig: tokenConfig });
  assert.match(who.out, /Username +system:serviceaccount:it:robot\n/);

  const view = await svcctl(['config', 'view'], { kubeconfig: tokenConfig });
  assert.match(view.out, /token: REDACTED/);
  assert.match(view.out, /certificate-authority-data: DATA\+OMITTED/);
  assert.match((await svcctl(['config', 'view', '--raw', '--minify'], { kubeconfig: tokenConfig })).out, new RegExp(`token: ${token.slice(0, 20)}`));
  assert.match((await svcctl(['config', 'get-contexts'], { kubeconfig: tokenConfig })).out, /^CURRENT +NAME +CLUSTER +AUTHINFO +NAMESPACE\n +other +c +robot +\n\* +robot +c +robot +it\n$/);
  assert.equal((await svcctl(['config', 'use-context', 'other'], { kubeconfig: tokenConfig })).out, 'Switched to context "other".\n');
  assert.equal((await svcctl(['config', 'current-context'], { kubeconfig: tokenConfig })).out, 'other\n');
  assert.equal((await svcctl(['config', 'set-context', '--current', '--namespace=kube'], { kubeconfig: tokenConfig })).out, 'Context "other" modified.\n');
  assert.match((await svcctl(['config', 'get-contexts', 'other'], { kubeconfig: tokenConfig })).out, /\* +other +c +robot +kube\n$/);
  const missing = await svcctl(['config', 'use-context', 'nowhere'], { kubeconfig: tokenConfig });
  assert.deepEqual([missing.code, missing.err], [1, 'error: no context exists with the name: "nowhere"\n']);
  if (kubectl) {
    const k = await runKubectl(kubectl, tokenConfig, join(dir, 'home'), ['config', 'get-contexts']);
    assert.equal((await svcctl(['config', 'get-contexts'], { kubeconfig: tokenConfig })).out.replace(/ +/g, ' '), k.stdout.replace(/ +/g, ' '));
  }

  const bash = await ok('completion', 'bash');
  assert.match(bash, /complete -F _svcctl svcctl/);
  assert.match(bash, /api-resources -o name/);
  assert.match(await ok('completion', 'zsh'), /^#compdef svcctl/);
  assert.equal((await svcctl(['completion', 'fish'])).code, 1);
});

test('beside kubectl on the k8s flavour: tables, formats, errors, discovery and access checks print the same', { skip: kubectl === undefined ? 'kubectl is not on PATH' : false }, async () => {
  const k8s = await startTestServer({ flavour: 'k8s' });
  try {
    const bin = kubectl!;
    const home = join(dir, 'home-k8s');
    await k8s.createNamespace('cmp');
    const f = join(dir, 'cmp.yaml');
    writeFileSync(f, 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: cmp, labels: {x: "1"}}\ndata: {k: v}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b, namespace: cmp}\n');
    const reader = await k8s.createUser({ name: 'cmp-reader', namespace: 'cmp', rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }] });
    const both = async (argv: string[], kubeconfig = k8s.kubeconfigPath): Promise<[Out, Out]> => {
      const k = await runKubectl(bin, kubeconfig, home, argv);
      const ours = await svcctl(argv, { kubeconfig });
      return [ours, { code: k.code, out: k.stdout, err: k.stderr }];
    };
    const same = async (argv: string[], normalize: (t: string) => string = (t) => t, kubeconfig?: string): Promise<void> => {
      const [ours, theirs] = await both(argv, kubeconfig);
      assert.equal(ours.code, theirs.code, `exit code of ${argv.join(' ')}: ${ours.err} / ${theirs.err}`);
      assert.equal(normalize(ours.out), normalize(theirs.out), `output of ${argv.join(' ')}`);
    };
    const created = await svcctl(['create', '-f', f], { kubeconfig: k8s.kubeconfigPath });
    assert.equal(created.out, 'configmap/a created\nconfigmap/b created\n');
    await same(['-n', 'cmp', 'get', 'configmaps'], noAge);
    await same(['get', 'configmaps', '-A', '--show-labels', '-l', 'x'], noAge);
    await same(['-n', 'cmp', 'get', 'cm', 'a', 'b', '-o', 'name']);
    await same(['-n', 'cmp', 'get', 'cm', '-o', 'jsonpath={range .items[*]}{.metadata.name}{"\\t"}{.data}{"\\n"}{end}']);
    await same(['-n', 'cmp', 'get', 'cm', '-o', 'custom-columns=NAME:.metadata.name,K:.data.k']);
    await same(['get', 'ns', 'cmp'], noAge);
    const [missingOurs, missingTheirs] = await both(['-n', 'cmp', 'get', 'cm', 'nope']);
    assert.deepEqual([missingOurs.code, missingOurs.err], [missingTheirs.code, missingTheirs.err]);
    // comma-separated types, with the failures of the names one type lacks
    for (const argv of [['-n', 'cmp', 'get', 'cm,sa'], ['-n', 'cmp', 'get', 'cm,sa', 'a', 'default'], ['-n', 'cmp', 'get', 'cm,sa', 'a'], ['get', 'cm,ns', '-A'], ['get', 'ns,cm', '-A'], ['get', 'ns,pv', '-A'], ['-n', 'cmp', 'get', 'cm,rc'], ['-n', 'cmp', 'get', 'cm,secrets', '-l', 'x', '-o', 'name']]) {
      const [ours, theirs] = await both(argv);
      assert.deepEqual([ours.code, noAge(ours.out), ours.err], [theirs.code, noAge(theirs.out), theirs.err], argv.join(' '));
    }
    await same(['api-versions']);
    await same(['api-resources', '-o', 'name']);
    await same(['auth', 'can-i', 'list', 'configmaps'], undefined, reader.kubeconfigPath);
    await same(['auth', 'can-i', 'delete', 'configmaps'], undefined, reader.kubeconfigPath);
    // writes: kubectl acts on one object, svcctl on the other, and they report alike
    for (const argv of [['label', 'cm', '%', 'y=2'], ['annotate', 'cm', '%', 'n=1'], ['patch', 'cm', '%', '-p', '{"data":{"p":"1"}}'], ['delete', 'cm', '%']]) {
      const k = await runKubectl(bin, k8s.kubeconfigPath, home, ['-n', 'cmp', ...argv.map((x) => (x === '%' ? 'a' : x))]);
      const ours = await svcctl(['-n', 'cmp', ...argv.map((x) => (x === '%' ? 'b' : x))], { kubeconfig: k8s.kubeconfigPath });
      assert.deepEqual([ours.code, ours.out], [k.code, k.stdout.replace(/\ba\b/, 'b')], argv.join(' '));
    }
  } finally {
    await k8s.stop();
  }
});
