/**
 * kubectl reading the server's OpenAPI and discovery: `kubectl explain pods.spec.containers` and
 * `kubectl api-resources` (short names, every default-on group, none of the alpha ones). Skipped without kubectl.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { kubectlsOrSkip, runKubectl, succeeded } from '@svc-apiserver/testing/kubectl';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { tempDir } from '@svc-apiserver/testing/temp-dir';

const kubectls = kubectlsOrSkip('kubectl explain and api-resources');


if (kubectls.length > 0) {
  describe('kubectl explain and api-resources (k8s flavour)', () => {
    let server: ServerProcess;
    const home = tempDir({ after }, 'kubectl-explain-');
    before(async () => {
      server = await startServerProcess({ flavour: 'k8s', storage: 'memory' });
    });
    after(async () => {
      await server?.stop();
    });

    for (const bin of kubectls) {
      test(`${bin.label}: explain pods.spec.containers`, async () => {
        const out = succeeded(await runKubectl(bin, server.kubeconfigPath, join(home, bin.label), ['explain', 'pods.spec.containers']), 'explain');
        assert.match(out, /KIND:\s+Pod/);
        assert.match(out, /FIELD:\s+containers/);
        assert.match(out, /imagePullPolicy/);
        assert.match(out, /terminationMessagePath/);
      });

      test(`${bin.label}: api-resources`, async () => {
        const out = succeeded(await runKubectl(bin, server.kubeconfigPath, join(home, bin.label), ['api-resources']), 'api-resources');
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
        const namespaced = succeeded(await runKubectl(bin, server.kubeconfigPath, join(home, bin.label), ['api-resources', '--namespaced=false', '-o', 'name']), 'api-resources -o name');
        assert.match(namespaced, /^namespaces$/m);
        assert.match(namespaced, /^clusterroles\.rbac\.authorization\.k8s\.io$/m);
      });
    }
  });
}
