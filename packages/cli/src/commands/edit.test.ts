/**
 * `edit` with scripted editors against a real server: the reopen-with-reasons loop beside kubectl 1.27, JSON,
 * --output-patch, several objects as a List, --save-config, and the ways an edit ends without a write.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { findKubectls, runKubectl } from '@svc-apiserver/testing/kubectl';
import { startTestServer, type TestServer } from '@svc-apiserver/test-server';
import { run } from '../cli.js';

const kubectl = findKubectls(['1.27']).find((k) => k.label === 'kubectl.1.27');
const dir = tempDir({ after }, 'svcctl-edit-');
let svc: TestServer;

/** An editor script: each pass logs the file's comment lines, then runs the pass's shell command on the file. */
function editor(name: string, passes: readonly string[]): { path: string; log: string } {
  const path = join(dir, `${name}.sh`);
  const log = join(dir, `${name}.log`);
  const count = join(dir, `${name}.count`);
  const cases = passes.map((cmd, i) => `  ${i + 1}) ${cmd} ;;`).join('\n');
  writeFileSync(path, `#!/bin/sh\nn=$(cat ${count} 2>/dev/null || echo 0); n=$((n+1)); echo $n > ${count}\necho "=== pass $n" >> ${log}; grep '^#' "$1" >> ${log}\ncase $n in\n${cases}\nesac\n`, { mode: 0o755 });
  return { path, log };
}

async function svcctl(server: TestServer, argv: string[], editorPath: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await run(['--kubeconfig', server.kubeconfigPath, ...argv], {
    stdout: (t) => { out += t; }, stderr: (t) => { err += t; }, readStdin: async () => '', env: { EDITOR: editorPath, PATH: process.env.PATH ?? '' },
  });
  return { code, out, err };
}

before(async () => {
  svc = await startTestServer();
  await svc.createNamespace('ed');
});
after(() => svc?.stop());

const cm = (name: string, data: Record<string, string>) => svc.client.create({ group: '', version: 'v1', resource: 'configmaps', namespace: 'ed' }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });
const dataOf = async (name: string): Promise<unknown> => {
  const got = await svc.client.get({ group: '', version: 'v1', resource: 'configmaps', namespace: 'ed' }, name);
  return got.ok ? got.value.data : undefined;
};

test('an invalid edit reopens the editor with the server\'s reasons; a JSON edit with --output-patch; several objects as a List', async () => {
  await cm('one', { k: 'v' });
  const fix = editor('fix', [`sed -i 's/^  k: v$/  "bad key!": v/' "$1"`, `sed -i 's/"bad key!"/good/' "$1"`]);
  const fixed = await svcctl(svc, ['-n', 'ed', 'edit', 'cm', 'one'], fix.path);
  assert.deepEqual(fixed, { code: 0, out: 'configmap/one edited\n', err: 'error: configmaps "one" is invalid\n' });
  const log = readFileSync(fix.log, 'utf8');
  assert.match(log, /=== pass 2\n# Please edit the object below\.[^\n]*\n[^\n]*\n# reopened with the relevant failures\.\n#\n# configmaps "one" was not valid:\n# \* data\[bad key!\]: Invalid value: "bad key!": a valid config key must consist/);
  assert.deepEqual(await dataOf('one'), { good: 'v' });

  const jsonEdit = editor('json', [`grep -q '"kind": "ConfigMap"' "$1" && sed -i 's/"good": "v"/"good": "w"/' "$1"`]);
  const patched = await svcctl(svc, ['-n', 'ed', 'edit', 'cm', 'one', '-o', 'json', '--output-patch'], jsonEdit.path);
  assert.deepEqual(patched, { code: 0, out: 'Patch: {"data":{"good":"w"}}\nconfigmap/one edited\n', err: '' });

  await cm('two', { k: 'v' });
  const both = editor('list', [`grep -q '^kind: List' "$1" && sed -i 's/^      k: v$/      k: listed/' "$1"`]);
  const listed = await svcctl(svc, ['-n', 'ed', 'edit', 'cm', 'one', 'two'], both.path);
  assert.deepEqual(listed, { code: 0, out: 'configmap/one skipped\nconfigmap/two edited\n', err: '' });
  assert.deepEqual(await dataOf('two'), { k: 'listed' });

  const saving = editor('save', [`sed -i 's/^  k: listed$/  k: saved/' "$1"`]);
  assert.equal((await svcctl(svc, ['-n', 'ed', 'edit', 'cm', 'two', '--save-config'], saving.path)).code, 0);
  const two = await svc.client.get({ group: '', version: 'v1', resource: 'configmaps', namespace: 'ed' }, 'two');
  const applied = JSON.parse((two.ok ? two.value.metadata?.annotations?.['kubectl.svc.io/last-applied-configuration'] : undefined) ?? '{}') as { data?: unknown };
  assert.deepEqual(applied.data, { k: 'saved' });
});

test('an edit ends without a write: unchanged, emptied, renamed, or an invalid edit saved again unchanged', async () => {
  await cm('three', { k: 'v' });
  assert.deepEqual(await svcctl(svc, ['-n', 'ed', 'edit', 'cm', 'three'], editor('same', ['true']).path), { code: 0, out: '', err: 'Edit cancelled, no changes made.\n' });
  assert.deepEqual(await svcctl(svc, ['-n', 'ed', 'edit', 'cm', 'three'], editor('empty', [`: > "$1"`]).path), { code: 0, out: '', err: 'Edit cancelled, saved file was empty.\n' });
  const renamed = await svcctl(svc, ['-n', 'ed', 'edit', 'cm', 'three'], editor('rename', [`sed -i 's/^  name: three$/  name: other/' "$1"`]).path);
  assert.equal(renamed.code, 1);
  assert.match(renamed.err, /^A copy of your changes has been stored to "[^"]+"\nerror: At least one of apiVersion, kind and name was changed\n$/);
  const stuck = await svcctl(svc, ['-n', 'ed', 'edit', 'cm', 'three'], editor('stuck', [`sed -i 's/^  k: v$/  "bad key!": v/' "$1"`, 'true']).path);
  assert.equal(stuck.code, 1);
  const kept = /stored to "([^"]+)"/.exec(stuck.err)?.[1] ?? '';
  assert.match(stuck.err, /^error: configmaps "three" is invalid\nA copy of your changes has been stored to "[^"]+"\nerror: Edit cancelled, no valid changes were saved\.\n$/);
  assert.ok(existsSync(kept) && readFileSync(kept, 'utf8').includes('bad key!'), 'the copy holds the edit');
  assert.deepEqual(await dataOf('three'), { k: 'v' });
});

test('the reopen loop prints what kubectl 1.27 prints', { skip: kubectl === undefined ? 'kubectl 1.27 is not installed' : false }, async () => {
  const k8s = await startTestServer({ flavour: 'k8s' });
  try {
    for (const name of ['theirs', 'ours']) {
      assert.ok((await k8s.client.create({ group: '', version: 'v1', resource: 'configmaps', namespace: 'default' }, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: 'v' } })).ok);
    }
    const passes = [`sed -i 's/^  k: v$/  "bad key!": v/' "$1"`, `sed -i 's/"bad key!"/good/' "$1"`];
    const theirEditor = editor('kubectl-loop', passes);
    // kubectl runs with this process's environment
    const saved = process.env.EDITOR;
    process.env.EDITOR = theirEditor.path;
    const theirs = await runKubectl(kubectl!, k8s.kubeconfigPath, join(dir, 'home'), ['edit', 'cm', 'theirs']).finally(() => {
      if (saved === undefined) delete process.env.EDITOR;
      else process.env.EDITOR = saved;
    });
    const ourEditor = editor('svcctl-loop', passes);
    const ours = await svcctl(k8s, ['edit', 'cm', 'ours'], ourEditor.path);
    assert.deepEqual([ours.code, ours.out, ours.err], [theirs.code, theirs.stdout.replace('theirs', 'ours'), theirs.stderr.replaceAll('theirs', 'ours')]);
    assert.equal(readFileSync(ourEditor.log, 'utf8'), readFileSync(theirEditor.log, 'utf8').replaceAll('theirs', 'ours'));
  } finally {
    await k8s.stop();
  }
});
