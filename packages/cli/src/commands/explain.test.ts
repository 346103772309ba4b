/**
 * `explain` against a real server: the svc flavour's groups, and line for line beside kubectl 1.27 on the k8s
 * flavour (built-in kinds, field paths through arrays and maps, --recursive, --api-version, custom resources,
 * errors).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '@svc-apiserver/testing/temp-dir';
import { findKubectls, runKubectl } from '@svc-apiserver/testing/kubectl';
import { startTestServer, type TestServer } from '@svc-apiserver/test-server';
import { run } from '../cli.js';

const kubectl = findKubectls(['1.27']).find((k) => k.label === 'kubectl.1.27');
const dir = tempDir({ after }, 'svcctl-explain-');
let svc: TestServer;
let k8s: TestServer;

/** A CRD with required fields, an enum, an array of objects and a map, in two versions. */
const widgets = (group: string) => ({
  apiVersion: `${group}/v1`, kind: 'CustomResourceDefinition', metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wd'] },
    versions: [
      {
        name: 'v1', served: true, storage: true, schema: {
          openAPIV3Schema: {
            type: 'object', description: 'A widget is a thing that does stuff for the example controller.', properties: {
              spec: {
                type: 'object', description: 'What the widget should be.', required: ['size'], properties: {
                  size: { type: 'integer', description: 'How big.' },
                  color: { type: 'string', enum: ['red', 'green'], description: 'The color of the widget.' },
                  parts: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } },
                  labels: { type: 'object', additionalProperties: { type: 'string' } },
                },
              },
            },
          },
        },
      },
      { name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'string' } } } } } } },
    ],
  },
});

async function svcctl(server: TestServer, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await run(['--kubeconfig', server.kubeconfigPath, ...argv], { stdout: (t) => { out += t; }, stderr: (t) => { err += t; }, readStdin: async () => '', env: {} });
  return { code, out, err };
}

async function withCrd(server: TestServer): Promise<void> {
  const group = server.names.group('apiextensions');
  const created = await server.client.create({ group, version: 'v1', resource: 'customresourcedefinitions' }, widgets(group));
  assert.ok(created.ok, JSON.stringify(created));
  // explain reads the published schema: wait until the group-version is in the OpenAPI v3 index
  for (let i = 0; i < 100; i++) {
    const index = await server.client.request<{ paths: Record<string, unknown> }>({ method: 'GET', path: '/openapi/v3' });
    if (index.ok && index.value.paths['apis/example.com/v1']) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail('the CRD was never published');
}

before(async () => {
  [svc, k8s] = await Promise.all([startTestServer(), startTestServer({ flavour: 'k8s' })]);
  await Promise.all([withCrd(svc), withCrd(k8s)]);
});
after(async () => {
  await Promise.all([svc?.stop(), k8s?.stop()]);
});

test('explain names the svc flavour\'s groups and walks fields, custom resources and versions', async () => {
  const lease = await svcctl(svc, ['explain', 'leases.spec.holderIdentity']);
  assert.equal(lease.code, 0, lease.err);
  assert.match(lease.out, /^GROUP: +coordination\.svc\.io\nKIND: +Lease\nVERSION: +v1\n\nFIELD: holderIdentity <string>\n\nDESCRIPTION:\n    holderIdentity contains the identity of the holder of a current lease\.\n/);
  const policy = await svcctl(svc, ['explain', 'pods.spec.restartPolicy']);
  assert.match(policy.out, /Possible enum values:\n     - `"Always"`\n/);
  const spec = await svcctl(svc, ['explain', 'wd.spec', '--api-version=example.com/v1']);
  assert.match(spec.out, /^GROUP: +example\.com\nKIND: +Widget\nVERSION: +v1\n\nFIELD: spec <Object>\n\nDESCRIPTION:\n    What the widget should be\.\n    \nFIELDS:\n  color\t<string>\n    The color of the widget\.\n\n  labels\t<map\[string\]string>\n/);
  assert.match(spec.out, /\n  size\t<integer> -required-\n    How big\.\n\n\n$/);
  // the group's preferred version is the highest by kube's version order
  const v2 = await svcctl(svc, ['explain', 'widgets.spec']);
  assert.match(v2.out, /VERSION: +v2\n[\s\S]*size\t<string>/);
  const missing = await svcctl(svc, ['explain', 'pods.spec.nothing']);
  assert.deepEqual([missing.code, missing.out, missing.err], [1, 'KIND:       Pod\nVERSION:    v1\n\n', 'error: field "nothing" does not exist\n']);
});

test('explain prints what kubectl 1.27 prints', { skip: kubectl === undefined ? 'kubectl 1.27 is not installed' : false }, async () => {
  const cases = [
    ['explain', 'pods'], ['explain', 'pods.spec'], ['explain', 'pods.spec.containers'], ['explain', 'pods.spec.restartPolicy'],
    ['explain', 'deployments.apps.spec', '--recursive'], ['explain', 'deploy.spec.template.spec.containers.resources'],
    ['explain', 'svc.spec.ports.targetPort'], ['explain', 'nodes.status.capacity'], ['explain', 'cm.data'],
    ['explain', 'hpa', '--api-version=autoscaling/v1'], ['explain', 'crd.spec.versions.schema', '--recursive'],
    ['explain', 'leases'], ['explain', 'pods.metadata.creationTimestamp'],
    ['explain', 'widgets'], ['explain', 'wd.spec.color', '--api-version=example.com/v1'], ['explain', 'widgets', '--recursive'],
    ['explain', 'widget.spec.parts', '--api-version=example.com/v1'], ['explain', 'widgets', '--api-version=example.com/v1', '--recursive'],
    ['explain', 'pods.spec.nothing'], ['explain', 'nothing'], ['explain', 'pods', '--api-version=v2'], ['explain', 'a', 'b'],
  ];
  for (const argv of cases) {
    const theirs = await runKubectl(kubectl!, k8s.kubeconfigPath, dir, argv);
    const ours = await svcctl(k8s, argv);
    assert.deepEqual([ours.code, ours.out, ours.err], [theirs.code, theirs.stdout, theirs.stderr], argv.join(' '));
  }
});
