/**
 * Stock kubectl's write commands against the real server: `apply --server-side` by two field managers conflicts
 * and `--force-conflicts` resolves it, `diff`, `patch --type=json|merge|strategic`, `delete --cascade=foreground`
 * and `--dry-run=server`. Skipped when kubectl is not installed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectlsOrSkip, runKubectl, succeeded, type KubectlRun } from '@svc-apiserver/testing/kubectl';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { call } from './http.js';

const kubectls = kubectlsOrSkip('kubectl writes');


const configMap = (name: string, ns: string, data: Record<string, string>, extra = ''): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n  namespace: ${ns}\n${extra}data:\n${Object.entries(data).map(([k, v]) => `  ${k}: "${v}"`).join('\n')}\n`;

describe('kubectl writes', { skip: kubectls.length === 0 }, () => {
  let server: ServerProcess;
  const home = tempDir({ after }, 'kubectl-apply-');

  before(async () => {
    server = await startServerProcess();
  });

  after(async () => {
    await server?.stop();
  });

  for (const bin of kubectls) {
    test(`${bin.label}: apply --server-side, conflicts, --force-conflicts, diff, patch, --dry-run=server, delete --cascade=foreground`, async () => {
      const k = (...args: string[]): Promise<KubectlRun> => runKubectl(bin, server.kubeconfigPath, join(home, bin.label), args);
      const ns = `ka-${bin.label.replace(/\./g, '-')}`;
      const file = (name: string, text: string): string => {
        const path = join(home, `${bin.label}-${name}.yaml`);
        writeFileSync(path, text);
        return path;
      };
      succeeded(await k('create', 'namespace', ns), 'create namespace');

      const first = file('first', configMap('cfg', ns, { x: '1' }));
      assert.equal(succeeded(await k('apply', '--server-side', '--field-manager=alice', '-f', first), 'apply alice').trim(), 'configmap/cfg serverside-applied');
      const second = file('second', configMap('cfg', ns, { x: '2' }));
      const clash = await k('apply', '--server-side', '--field-manager=bob', '-f', second);
      assert.notEqual(clash.code, 0, 'a second manager changing the field conflicts');
      assert.match(clash.stderr, /conflict/i);
      assert.match(clash.stderr, /alice/);
      assert.match(clash.stderr, /\.data\.x/);
      succeeded(await k('apply', '--server-side', '--field-manager=bob', '--force-conflicts', '-f', second), 'apply --force-conflicts');
      const managers = succeeded(await k('-n', ns, 'get', 'configmap', 'cfg', '--show-managed-fields', '-o', 'jsonpath={.metadata.managedFields[*].manager}'), 'get managers');
      assert.equal(managers.trim(), 'bob');

      const third = file('third', configMap('cfg', ns, { x: '3' }));
      const diff = await k('diff', '--server-side', '--field-manager=bob', '-f', third);
      assert.equal(diff.code, 1, `diff finds a difference: ${diff.stderr}`);
      assert.match(diff.stdout, /-\s+x: "2"/);
      assert.match(diff.stdout, /\+\s+x: "3"/);
      assert.equal(succeeded(await k('-n', ns, 'get', 'configmap', 'cfg', '-o', 'jsonpath={.data.x}'), 'get after diff'), '2', 'diff changes nothing');

      succeeded(await k('-n', ns, 'patch', 'configmap', 'cfg', '--type=json', '-p', '[{"op":"add","path":"/data/j","value":"json"}]'), 'patch json');
      succeeded(await k('-n', ns, 'patch', 'configmap', 'cfg', '--type=merge', '-p', '{"data":{"m":"merge"}}'), 'patch merge');
      succeeded(await k('-n', ns, 'patch', 'configmap', 'cfg', '--type=strategic', '-p', '{"metadata":{"labels":{"s":"strategic"}}}'), 'patch strategic');
      const after = JSON.parse(succeeded(await k('-n', ns, 'get', 'configmap', 'cfg', '-o', 'json'), 'get json')) as { data: Record<string, string>; metadata: { labels: Record<string, string> } };
      assert.deepEqual(after.data, { x: '2', j: 'json', m: 'merge' });
      assert.deepEqual(after.metadata.labels, { s: 'strategic' });

      const dry = await k('-n', ns, 'patch', 'configmap', 'cfg', '--type=merge', '-p', '{"data":{"x":"dry"}}', '--dry-run=server');
      succeeded(dry, 'patch --dry-run=server');
      assert.equal(succeeded(await k('-n', ns, 'get', 'configmap', 'cfg', '-o', 'jsonpath={.data.x}'), 'get after dry run'), '2');

      const owner = JSON.parse(succeeded(await k('-n', ns, 'create', 'configmap', 'owner', '-o', 'json'), 'create owner')) as { metadata: { uid: string } };
      const dependent = file('dependent', configMap('dependent', ns, { a: 'b' },
        `  ownerReferences:\n  - apiVersion: v1\n    kind: ConfigMap\n    name: owner\n    uid: ${owner.metadata.uid}\n    blockOwnerDeletion: true\n`));
      succeeded(await k('apply', '--server-side', '--field-manager=alice', '-f', dependent), 'apply dependent');
      succeeded(await k('-n', ns, 'delete', 'configmap', 'owner', '--cascade=foreground', '--timeout=30s'), 'delete --cascade=foreground');
      const left = await call(server.client, 'GET', `/api/v1/namespaces/${ns}/configmaps/dependent`);
      assert.equal(left.status, 404, 'the dependent went before the owner');
    });
  }
});
