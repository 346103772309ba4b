/**
 * svcctl against the real server with the admin kubeconfig it writes.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { namesFor } from '@svc-apiserver/api';
import { moduleEntry, repoRoot } from '@svc-apiserver/testing/node-child';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { tempDir } from '@svc-apiserver/testing/temp-dir';

const names = namesFor('svc');
let server: ServerProcess;
const dir = tempDir({ after }, 'svcctl-e2e-');

function svcctl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const entry = moduleEntry(join(repoRoot, 'packages', 'cli'), 'main');
  return new Promise((resolve) => {
    execFile(process.execPath, [...entry, `--kubeconfig=${server.kubeconfigPath}`, ...args], { cwd: repoRoot, timeout: 30_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

before(async () => {
  server = await startServerProcess();
});

after(async () => {
  await server?.stop();
});

test('svcctl get, create -f, label, replace, delete, api-resources, version', async () => {
  const nsList = await svcctl('get', 'namespaces', '-o', 'name');
  assert.equal(nsList.code, 0, nsList.stderr);
  for (const n of ['default', names.name('systemNamespace'), names.name('publicNamespace')]) {
    assert.ok(nsList.stdout.split('\n').includes(`namespace/${n}`), nsList.stdout);
  }
  const manifest = join(dir, 'objects.yaml');
  const coordination = names.group('coordination');
  writeFileSync(manifest, `apiVersion: v1
kind: Namespace
metadata:
  name: cli
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: cli
data:
  mode: "on"
---
apiVersion: ${coordination}/v1
kind: Lease
metadata:
  name: leader
  namespace: cli
spec:
  holderIdentity: me
`);
  const created = await svcctl('create', '-f', manifest);
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.stdout, `namespace/cli created\nconfigmap/settings created\nlease.${coordination}/leader created\n`);

  const got = await svcctl('-n', 'cli', 'get', 'cm', 'settings', '-o', 'json');
  assert.equal(got.code, 0, got.stderr);
  const cm = JSON.parse(got.stdout) as { data: Record<string, string>; metadata: { resourceVersion: string } };
  assert.deepEqual(cm.data, { mode: 'on' });

  const labeled = await svcctl('-n', 'cli', 'label', 'configmap', 'settings', 'tier=web');
  assert.equal(labeled.code, 0, labeled.stderr);
  assert.equal(labeled.stdout, 'configmap/settings labeled\n');

  const edited = join(dir, 'settings.yaml');
  writeFileSync(edited, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: cli\ndata:\n  mode: "off"\n`);
  const replaced = await svcctl('replace', '-f', edited);
  assert.equal(replaced.code, 0, replaced.stderr);
  const after = await svcctl('-n', 'cli', 'get', 'configmap', 'settings', '-o', 'yaml');
  assert.match(after.stdout, /mode: "?off"?/);

  const table = await svcctl('-n', 'cli', 'get', 'leases');
  assert.match(table.stdout, /^NAME\s+HOLDER\s+AGE\nleader\s+me\s+\d+s\n$/, 'the server\'s Table columns');

  const deleted = await svcctl('-n', 'cli', 'delete', 'configmap', 'settings');
  assert.equal(deleted.stdout, 'configmap "settings" deleted\n');
  const missing = await svcctl('-n', 'cli', 'get', 'configmap', 'settings');
  assert.equal(missing.code, 1);
  assert.equal(missing.stderr, 'Error from server (NotFound): configmaps "settings" not found\n');

  const resources = await svcctl('api-resources');
  assert.equal(resources.code, 0, resources.stderr);
  assert.match(resources.stdout, /^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);

  const version = await svcctl('version');
  assert.equal(version.code, 0, version.stderr);
  assert.match(version.stdout, /^Client Version: v\S+\nServer Version: v1\.27\.\S*\n$/);
});
