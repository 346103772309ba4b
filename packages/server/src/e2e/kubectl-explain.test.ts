/**
 * kubectl reading the server's OpenAPI and discovery: `kubectl explain pods.spec.containers` and
 * `kubectl api-resources` (short names, every default-on group, none of the alpha ones). Skipped without kubectl.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findKubectls, runKubectl, type KubectlRun } from './kubectl.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

const kubectls = findKubectls();

if (kubectls.length === 0) {
  test('kubectl explain and api-resources', (t) => {
    t.skip('kubectl is not on PATH');
  });
}

function ok(r: KubectlRun, what: string): string {
  assert.equal(r.code, 0, `${what} failed (${r.code}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

if (kubectls.length > 0) {
  describe('kubectl explain and api-resources (k8s flavour)', () => {
    let server: ServerProcess;
    let home: string;
    before(async () => {
      server = await startServerProcess({ flavour: 'k8s', storage: 'memory' });
      home = mkdtempSync(join(tmpdir(), 'kubectl-explain-'));
    });
    after(async () => {
      await server?.stop();
      if (home) rmSync(home, { recursive: true, force: true });
    });

    for (const bin of kubectls) {
      test(`${bin.label}: explain pods.spec.containers`, async () => {
        const out = ok(await runKubectl(bin, server.kubeconfigPath, join(home, bin.label), ['explain', 'pods.spec.containers']), 'explain');
        assert.match(out, /KIND:\s+Pod/);
        assert.match(out, /FIELD:\s+containers/);
        assert.match(out, /imagePullPolicy/);
        assert.match(out, /terminationMessagePath/);
      });

      test(`${bin.label}: api-resources`, async () => {
        const out = ok(await runKubectl(bin, server.kubeconfigPath, join(home, bin.label), ['api-resources']), 'api-resources');
        const rows = out.split('\n').slice(1).filter(Boolean).map((l) => l.trim().split(/\s+/));
        const find = (name: string, group: string) => rows.find((r) => r[0] === name && r.includes(group === '' ? 'v1' : group));
        assert.ok(find('pods', '')?.includes('po'), 'pods with short name po');
        assert.ok(find('services', '')?.includes('svc'));
        assert.ok(find('deployments', 'apps/v1')?.includes('deploy'));
        assert.ok(find('horizontalpodautoscalers', 'autoscaling/v2')?.includes('hpa'));
        assert.ok(find('cronjobs', 'batch/v1')?.includes('cj'));
        assert.ok(find('flowschemas', 'flowcontrol.apiserver.k8s.io/v1beta3'));
        assert.ok(find('events', 'events.k8s.io/v1')?.includes('ev'));
        assert.ok(!out.includes('v1alpha1'), 'alpha versions are off by default');
        const namespaced = ok(await runKubectl(bin, server.kubeconfigPath, join(home, bin.label), ['api-resources', '--namespaced=false', '-o', 'name']), 'api-resources -o name');
        assert.match(namespaced, /^namespaces$/m);
        assert.match(namespaced, /^clusterroles\.rbac\.authorization\.k8s\.io$/m);
      });
    }
  });
}
