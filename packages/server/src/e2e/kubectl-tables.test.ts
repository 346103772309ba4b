/**
 * Stock kubectl against the real server in the k8s flavour: its imperative `create` commands send protobuf bodies
 * (kubectl ≥ 1.32) and `get` prints the columns of the server's Tables. Skips when kubectl is not on PATH.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { kubectlsOrSkip, runKubectl, succeeded } from '@svc-apiserver/testing/kubectl';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { tempDir } from '@svc-apiserver/testing/temp-dir';

const kubectl = kubectlsOrSkip('kubectl tables', [])[0];

/** The header line of kubectl's table output, split on its column gaps. */
function header(out: string): string[] {
  return (out.split('\n')[0] ?? '').trim().split(/\s{2,}/);
}

if (kubectl !== undefined) {
  const bin = kubectl;
  describe('kubectl get columns and protobuf create, k8s flavour', () => {
    let server: ServerProcess;
    const home = tempDir({ after }, 'kubectl-home-');
    const run = (...args: string[]) => runKubectl(bin, server.kubeconfigPath, home, args);

    before(async () => {
      server = await startServerProcess({ flavour: 'k8s' });
    });
    after(async () => {
      await server?.stop();
    });

    test('create namespace, configmap and secret (protobuf request bodies), read back', async () => {
      succeeded(await run('create', 'namespace', 'tables'), 'create namespace');
      succeeded(await run('create', 'configmap', 'x', '-n', 'tables', '--from-literal=a=b', '--from-literal=c=d'), 'create configmap');
      succeeded(await run('create', 'secret', 'generic', 's', '-n', 'tables', '--from-literal=k=v'), 'create secret');
      const cm = JSON.parse(succeeded(await run('get', 'configmap', 'x', '-n', 'tables', '-o', 'json'), 'get configmap')) as { data: unknown };
      assert.deepEqual(cm.data, { a: 'b', c: 'd' });
      const secret = JSON.parse(succeeded(await run('get', 'secret', 's', '-n', 'tables', '-o', 'json'), 'get secret')) as { data: Record<string, string>; type: string };
      assert.equal(Buffer.from(secret.data['k']!, 'base64').toString(), 'v');
      assert.equal(secret.type, 'Opaque');
    });

    test('kubectl get shows the usual columns', async () => {
      const manifest = join(home, 'objects.yaml');
      writeFileSync(manifest, [
        'apiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: tables}\nspec: {containers: [{name: c, image: nginx}]}',
        'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: tables}\nspec: {type: ClusterIP, ports: [{port: 80, protocol: TCP}]}',
        'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: robot, namespace: tables}',
      ].join('\n---\n'));
      succeeded(await run('create', '-f', manifest), 'create -f');
      const cases: [string[], string[]][] = [
        [['pod', 'web'], ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']],
        [['pod', 'web', '-o', 'wide'], ['NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE', 'IP', 'NODE', 'NOMINATED NODE', 'READINESS GATES']],
        [['service', 'web'], ['NAME', 'TYPE', 'CLUSTER-IP', 'EXTERNAL-IP', 'PORT(S)', 'AGE']],
        [['configmap', 'x'], ['NAME', 'DATA', 'AGE']],
        [['secret', 's'], ['NAME', 'TYPE', 'DATA', 'AGE']],
        [['serviceaccount', 'robot'], ['NAME', 'SECRETS', 'AGE']],
        [['namespace', 'tables'], ['NAME', 'STATUS', 'AGE']],
      ];
      for (const [args, columns] of cases) {
        const out = succeeded(await run('get', '-n', 'tables', ...args), `get ${args.join(' ')}`);
        assert.deepEqual(header(out), columns, out);
      }
      const pod = succeeded(await run('get', '-n', 'tables', 'pod', 'web', '--no-headers'), 'get pod');
      assert.match(pod, /^web\s+0\/1\s+Pending\s+0\s+\d+s\s*$/m);
      const cm = succeeded(await run('get', '-n', 'tables', 'configmap', 'x', '--no-headers'), 'get configmap');
      assert.match(cm, /^x\s+2\s+\d+s\s*$/m);
      const secret = succeeded(await run('get', '-n', 'tables', 'secret', 's', '--no-headers'), 'get secret');
      assert.match(secret, /^s\s+Opaque\s+1\s+\d+s\s*$/m);
      const list = succeeded(await run('get', '-n', 'tables', 'configmaps,secrets'), 'get configmaps,secrets');
      assert.match(list, /configmap\/x\s+2/);
      assert.match(list, /secret\/s\s+Opaque\s+1/);
    });
  });
}
