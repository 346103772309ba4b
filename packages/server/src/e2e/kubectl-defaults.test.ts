/**
 * Stock kubectl against the k8s flavour: `kubectl create` of a Deployment owns the fields defaulting filled in, so a
 * later `kubectl apply --server-side` changing one of them conflicts as on kube-apiserver 1.27, and
 * `--force-conflicts` takes it. Skipped when kubectl is not installed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectlsOrSkip, runKubectl, succeeded, type KubectlRun } from '@svc-apiserver/testing/kubectl';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { startServerProcess, type ServerProcess } from './server-process.js';

const kubectls = kubectlsOrSkip('kubectl create, then apply --server-side of a defaulted field');

const manifest = (ns: string, extra: string): string => [
  'apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: web', `  namespace: ${ns}`, 'spec:', extra,
  '  selector:', '    matchLabels:', '      app: web', '  template:', '    metadata:', '      labels:', '        app: web',
  '    spec:', '      containers:', '      - name: nginx', '        image: nginx', '        ports:', '        - containerPort: 80', '',
].filter((line) => line !== '').join('\n');

describe('kubectl create, then apply --server-side (k8s flavour)', { skip: kubectls.length === 0 }, () => {
  let server: ServerProcess;
  const home = tempDir({ after }, 'kubectl-defaults-');

  before(async () => {
    server = await startServerProcess({ flavour: 'k8s' });
  });

  after(async () => {
    await server?.stop();
  });

  for (const bin of kubectls) {
    test(`${bin.label}: a changed defaulted field conflicts with kubectl-create; --force-conflicts takes it`, async () => {
      const k = (...args: string[]): Promise<KubectlRun> => runKubectl(bin, server.kubeconfigPath, join(home, bin.label), args);
      const ns = `kd-${bin.label.replace(/\./g, '-')}`;
      const file = (name: string, text: string): string => {
        const path = join(home, `${bin.label}-${name}.yaml`);
        writeFileSync(path, text);
        return path;
      };
      succeeded(await k('create', 'namespace', ns), 'create namespace');
      succeeded(await k('create', '-f', file('created', manifest(ns, ''))), 'create');
      const owned = succeeded(await k('-n', ns, 'get', 'deployment', 'web', '--show-managed-fields', '-o', 'jsonpath={.metadata.managedFields[0].fieldsV1.f:spec}'), 'get managed fields');
      assert.match(owned, /"f:revisionHistoryLimit"/);
      assert.match(owned, /"f:terminationMessagePath"/);
      assert.match(owned, /"k:\{\\?"containerPort\\?":80,\\?"protocol\\?":\\?"TCP\\?"\}"/);

      const changed = file('changed', manifest(ns, '  revisionHistoryLimit: 5'));
      const clash = await k('apply', '--server-side', '-f', changed);
      assert.notEqual(clash.code, 0, `apply of a field kubectl-create owns conflicts: ${clash.stdout}`);
      assert.match(clash.stderr, /Apply failed with 1 conflict: conflict with "kubectl-create" using apps\/v1: \.spec\.revisionHistoryLimit/);
      // The defaults the create filled in and apply leaves as they are do not conflict.
      succeeded(await k('apply', '--server-side', '-f', file('same', manifest(ns, ''))), 'apply without the changed field');
      succeeded(await k('apply', '--server-side', '--force-conflicts', '-f', changed), 'apply --force-conflicts');
      const limit = succeeded(await k('-n', ns, 'get', 'deployment', 'web', '-o', 'jsonpath={.spec.revisionHistoryLimit}'), 'get');
      assert.equal(limit.trim(), '5');
    });
  }
});
