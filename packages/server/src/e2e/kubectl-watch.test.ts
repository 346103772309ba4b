/**
 * kubectl's list and watch paths against the real server: `kubectl get -w` (a watch after a list, and on one
 * object, where kubectl drops the first event expecting the synthetic ADDED) and `kubectl get --chunk-size=2`
 * (paginated lists). Skipped when kubectl is not installed.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { call, createNamespace } from './http.js';
import { kubectlsOrSkip, runKubectl, type KubectlBinary } from '@svc-apiserver/testing/kubectl';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { tempDir } from '@svc-apiserver/testing/temp-dir';

const kubectls = kubectlsOrSkip('kubectl watch');

/** Runs `kubectl ... -w` until `until` matches its output (or 20 s), then stops it. */
function watchOutput(bin: KubectlBinary, kubeconfig: string, home: string, args: readonly string[], until: RegExp): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env.KUBECONFIG;
  const child = spawn(bin.path, [`--kubeconfig=${kubeconfig}`, `--cache-dir=${join(home, 'cache')}`, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve) => {
    const finish = (): void => {
      clearTimeout(timer);
      child.kill('SIGTERM');
      resolve(out);
    };
    const timer = setTimeout(finish, 20_000);
    const onData = (c: Buffer): void => {
      out += c.toString();
      if (until.test(out)) finish();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(out);
    });
  });
}

describe('kubectl get -w and --chunk-size', { skip: kubectls.length === 0 }, () => {
  let server: ServerProcess;
  const home = tempDir({ after }, 'kubectl-watch-home-');
  const ns = 'kubectl-watch';

  before(async () => {
    server = await startServerProcess();
    await createNamespace(server.client, ns);
  });

  after(async () => {
    await server?.stop();
  });

  for (const bin of kubectls) {
    test(`${bin.label}: get --chunk-size=2 lists every object across pages`, async () => {
      for (let i = 0; i < 5; i++) {
        const r = await call(server.client, 'POST', `/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${bin.label.replace(/\./g, '-')}-c${i}` } });
        assert.ok(r.status === 201 || r.status === 409, r.text);
      }
      const r = await runKubectl(bin, server.kubeconfigPath, join(home, bin.label), ['-n', ns, 'get', 'configmaps', '--chunk-size=2', '-o', 'name', '-v=6']);
      assert.equal(r.code, 0, r.stderr);
      const got = r.stdout.split('\n').filter((l) => l.includes(`${bin.label.replace(/\./g, '-')}-c`));
      assert.equal(got.length, 5, r.stdout);
      // -v=6 logs each request: the pages were fetched with limit and continue.
      assert.match(r.stderr, /limit=2/);
      assert.match(r.stderr, /continue=/);
    });

    test(`${bin.label}: get -w shows the list, then changes; get NAME -w shows the object and its change`, async () => {
      const prefix = `${bin.label.replace(/\./g, '-')}-w`;
      const path = `/api/v1/namespaces/${ns}/configmaps`;
      assert.equal((await call(server.client, 'POST', path, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${prefix}0` } })).status, 201);
      const watching = watchOutput(bin, server.kubeconfigPath, join(home, bin.label), ['-n', ns, 'get', 'configmaps', '-w', '-o', 'name'], new RegExp(`${prefix}1[\\s\\S]*${prefix}1`));
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal((await call(server.client, 'POST', path, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `${prefix}1` } })).status, 201);
      assert.equal((await call(server.client, 'PATCH', `${path}/${prefix}1`, { data: { a: 'b' } }, { 'content-type': 'application/merge-patch+json' })).status, 200);
      const out = await watching;
      assert.match(out, new RegExp(`configmap/${prefix}0`));
      assert.equal(out.split('\n').filter((l) => l.trim() === `configmap/${prefix}1`).length, 2, out);

      const one = watchOutput(bin, server.kubeconfigPath, join(home, bin.label), ['-n', ns, 'get', 'configmap', `${prefix}0`, '-w', '-o', 'name'], new RegExp(`${prefix}0[\\s\\S]*${prefix}0`));
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal((await call(server.client, 'PATCH', `${path}/${prefix}0`, { data: { a: 'c' } }, { 'content-type': 'application/merge-patch+json' })).status, 200);
      const single = await one;
      assert.equal(single.split('\n').filter((l) => l.trim() === `configmap/${prefix}0`).length, 2, single);
    });
  }
});
