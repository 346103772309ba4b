/**
 * Stock kubectl against the real server, with the admin kubeconfig it writes: in the svc flavour and in the k8s
 * flavour (where the system namespace and groups carry Kubernetes' names), with `kubectl` from PATH and, when it is
 * installed beside it, `kubectl.1.27`. Skipped when kubectl is not installed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { namesFor, type Flavour } from '@svc-apiserver/api';
import { parse, stringify } from 'yaml';
import { kubectlsOrSkip, runKubectl, succeeded, type KubectlRun } from '@svc-apiserver/testing/kubectl';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { tempDir } from '@svc-apiserver/testing/temp-dir';

const kubectls = kubectlsOrSkip('kubectl');


for (const flavour of kubectls.length > 0 ? (['svc', 'k8s'] as Flavour[]) : []) {
  describe(`kubectl, ${flavour} flavour`, () => {
    const names = namesFor(flavour);
    let server: ServerProcess;
    const home = tempDir({ after }, 'kubectl-home-');

    before(async () => {
      server = await startServerProcess({ flavour });
    });

    after(async () => {
      await server?.stop();
    });

    for (const bin of kubectls) {
      test(`${bin.label}: namespaces, create, get -o yaml, replace, label, create -f, delete`, async () => {
        const k = (...args: string[]): Promise<KubectlRun> => runKubectl(bin, server.kubeconfigPath, join(home, bin.label), args);
        const ns = `kt-${bin.label.replace(/\./g, '-')}`;

        const namespaces = succeeded(await k('get', 'namespaces', '-o', 'name'), 'get namespaces').split('\n').filter(Boolean);
        for (const n of ['default', names.name('systemNamespace'), names.name('publicNamespace'), names.name('nodeLeaseNamespace')]) {
          assert.ok(namespaces.includes(`namespace/${n}`), `namespace/${n} in ${namespaces.join(' ')}`);
        }
        const table = succeeded(await k('get', 'namespaces'), 'get namespaces (table)');
        // the namespace STATUS column comes with the per-type table printers of a later release
        assert.match(table, /^NAME\s+(STATUS\s+)?AGE\n/);
        assert.match(table, new RegExp(`^${names.name('systemNamespace')}\\s`, 'm'));

        assert.equal(succeeded(await k('create', 'namespace', ns), 'create namespace').trim(), `namespace/${ns} created`);
        assert.equal(succeeded(await k('-n', ns, 'create', 'configmap', 'x', '--from-literal=a=b'), 'create configmap').trim(), 'configmap/x created');

        const yamlText = succeeded(await k('-n', ns, 'get', 'configmap', 'x', '-o', 'yaml'), 'get -o yaml');
        const cm = parse(yamlText) as { kind: string; data: Record<string, string>; metadata: Record<string, unknown> };
        assert.equal(cm.kind, 'ConfigMap');
        assert.deepEqual(cm.data, { a: 'b' });

        const edited = join(home, `${bin.label}-x.yaml`);
        writeFileSync(edited, stringify({ ...cm, data: { a: 'c' } }));
        assert.equal(succeeded(await k('-n', ns, 'replace', '-f', edited), 'replace -f').trim(), 'configmap/x replaced');
        const replaced = JSON.parse(succeeded(await k('-n', ns, 'get', 'configmap', 'x', '-o', 'json'), 'get -o json')) as { data: Record<string, string> };
        assert.deepEqual(replaced.data, { a: 'c' });

        assert.equal(succeeded(await k('-n', ns, 'label', 'configmap', 'x', 'tier=web'), 'label').trim(), 'configmap/x labeled');
        const labeled = JSON.parse(succeeded(await k('-n', ns, 'get', 'configmap', 'x', '-o', 'json'), 'get labeled')) as { metadata: { labels: Record<string, string> } };
        assert.equal(labeled.metadata.labels.tier, 'web');
        const selected = succeeded(await k('-n', ns, 'get', 'configmaps', '-l', 'tier=web', '-o', 'name'), 'get -l');
        assert.equal(selected.trim(), 'configmap/x');

        const manifest = join(home, `${bin.label}-objects.yaml`);
        const coordination = names.group('coordination');
        writeFileSync(manifest, [
          stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'from-file' }, data: { k: 'v' } }),
          stringify({ apiVersion: `${coordination}/v1`, kind: 'Lease', metadata: { name: 'from-file' }, spec: { holderIdentity: 'me' } }),
        ].join('---\n'));
        const created = succeeded(await k('-n', ns, 'create', '-f', manifest), 'create -f').trim().split('\n');
        assert.deepEqual(created, ['configmap/from-file created', `lease.${coordination}/from-file created`]);
        const lease = JSON.parse(succeeded(await k('-n', ns, 'get', 'lease', 'from-file', '-o', 'json'), 'get lease')) as { spec: { holderIdentity: string } };
        assert.equal(lease.spec.holderIdentity, 'me');

        // server-side apply arrives with a later release: run it, assert nothing about it
        await k('-n', ns, 'apply', '--server-side', '-f', manifest);

        assert.equal(succeeded(await k('-n', ns, 'delete', 'configmap', 'x'), 'delete').trim(), 'configmap "x" deleted');
        const missing = await k('-n', ns, 'get', 'configmap', 'x');
        assert.equal(missing.code, 1);
        assert.match(missing.stderr, /Error from server \(NotFound\): configmaps "x" not found/);

        if (flavour === 'k8s') {
          const resources = succeeded(await k('api-resources'), 'api-resources');
          assert.match(resources, /^configmaps\s+cm\s+v1\s+true\s+ConfigMap$/m);
          const leaseVersion = `${names.group('coordination')}/v1`.replace(/[./]/g, (c) => `\\${c}`);
          assert.match(resources, new RegExp(`^leases\\s+${leaseVersion}\\s+true\\s+Lease$`, 'm'));
          assert.match(resources, /^namespaces\s+ns\s+v1\s+false\s+Namespace$/m);
        }
      });
    }
  });
}

