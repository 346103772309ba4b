/**
 * The shared suite every admission plugin runs (one suite per pluggable interface, as the storage backends share
 * theirs): the plugin is named in kube's run order with kube's default, and no request shape — objects missing
 * their spec, fields of the wrong type, deletes and connects without objects, cluster-scoped and namespaced
 * resources, subresources — makes either phase throw; every answer is an allowance or a failure Status. A plugin
 * that names the resources it acts on (`actsOn`, which lets the chain skip it elsewhere) allows every request of
 * the others and changes nothing in them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { admissionRig, testAdmin, type RigOptions } from './testing/admission-test-kit.js';
import type { AdmissionAttributes, AdmissionOperation, AdmissionResult } from './plugin.js';
import { defaultOnPlugins, pluginRunOrder } from './plugin-order.js';

/** Odd objects of every shape a client could send past decoding. */
const oddObjects: readonly (KubeObject | undefined)[] = [
  undefined,
  {},
  { metadata: {} },
  { metadata: { name: 'x', labels: { a: 'b' }, annotations: { c: 'd' } } },
  { metadata: { name: 'x' }, spec: 'not an object' },
  { metadata: { name: 'x' }, spec: { containers: 'nope', initContainers: [1, null, 'x'], volumes: {}, tolerations: 7, securityContext: [] } },
  { metadata: { name: 'x' }, spec: { containers: [{ name: 'c', resources: { requests: { cpu: 'lots' }, limits: [] }, securityContext: 'x' }] } },
  { metadata: { name: 'x', ownerReferences: 'x' as never, finalizers: 'x' as never }, spec: { hard: { pods: 'many' } }, status: 'x' },
];

/** The resources the suite addresses. */
const targets: readonly { group: string; resource: string; kind: string; namespaced: boolean; subresource?: string }[] = [
  { group: '', resource: 'pods', kind: 'Pod', namespaced: true },
  { group: '', resource: 'pods', kind: 'Pod', namespaced: true, subresource: 'status' },
  { group: '', resource: 'pods', kind: 'Eviction', namespaced: true, subresource: 'eviction' },
  { group: '', resource: 'namespaces', kind: 'Namespace', namespaced: false },
  { group: '', resource: 'nodes', kind: 'Node', namespaced: false },
  { group: '', resource: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim', namespaced: true },
  { group: '', resource: 'services', kind: 'Service', namespaced: true },
  { group: '', resource: 'events', kind: 'Event', namespaced: true },
  { group: '', resource: 'serviceaccounts', kind: 'TokenRequest', namespaced: true, subresource: 'token' },
  { group: 'apps', resource: 'deployments', kind: 'Deployment', namespaced: true },
  { group: 'batch', resource: 'cronjobs', kind: 'CronJob', namespaced: true },
  { group: '', resource: 'configmaps', kind: 'ConfigMap', namespaced: true },
];

const operations: readonly AdmissionOperation[] = ['CREATE', 'UPDATE', 'DELETE', 'CONNECT'];

function checkAnswer(r: AdmissionResult, where: string): void {
  assert.equal(typeof r.allowed, 'boolean', where);
  if (!r.allowed) {
    assert.equal(r.status.kind, 'Status', where);
    assert.ok(r.status.code >= 400 && r.status.code < 600, `${where}: code ${r.status.code}`);
    assert.equal(typeof r.status.message, 'string', where);
  }
}

/** Registers the suite for plugin `name` (built as the rig builds it, with `options`' configuration). */
export function pluginConformance(name: string, options: Omit<RigOptions, 'plugins'> = {}): void {
  test(`${name}: conformance — named in kube's order with kube's default; odd requests never throw`, async () => {
    assert.ok(pluginRunOrder.includes(name), `${name} is in the run order`);
    const rig = await admissionRig({ ...options, plugins: [name] });
    try {
      const plugin = rig.chain.plugins.find((p) => p.name === name);
      assert.ok(plugin !== undefined, `${name} is in the chain`);
      assert.equal(plugin.enabledByDefault, defaultOnPlugins.has(name), `${name} enabledByDefault`);
      const users = [testAdmin, { username: 'system:node:n1', groups: ['system:nodes'] }, { username: '', groups: [] }];
      for (const t of targets) {
        for (const operation of operations) {
          for (const [i, object] of oddObjects.entries()) {
            for (const user of users) {
              const a: AdmissionAttributes = {
                operation, group: t.group, version: 'v1', resource: t.resource, subresource: t.subresource ?? '', kind: t.kind,
                namespace: t.namespaced ? 'default' : '', name: i % 2 === 0 ? 'x' : '', dryRun: i % 3 === 0, user,
                ...(object !== undefined && operation !== 'DELETE' ? { object: structuredClone(object) } : {}),
                ...(operation === 'UPDATE' || operation === 'DELETE' ? { oldObject: structuredClone(oddObjects[(i + 3) % oddObjects.length] ?? {}) } : {}),
              };
              const where = `${name} ${operation} ${t.resource}/${t.subresource ?? ''} object#${i} as ${user.username || 'nobody'}`;
              if (!plugin.handles(operation)) continue;
              const before = structuredClone(a.object);
              const answers: (readonly [string, AdmissionResult])[] = [
                ...(plugin.admit !== undefined ? [['admit', await plugin.admit(a)] as const] : []),
                ...(plugin.validate !== undefined ? [['validate', await plugin.validate(a)] as const] : []),
              ];
              for (const [phase, answer] of answers) checkAnswer(answer, `${phase} ${where}`);
              if (plugin.actsOn?.(t.group, t.resource) === false) {
                for (const [phase, answer] of answers) assert.deepEqual(answer, { allowed: true }, `${phase} ${where}: outside actsOn`);
                assert.deepEqual(a.object, before, `${where}: outside actsOn, unchanged`);
              }
            }
          }
        }
      }
    } finally {
      rig.close();
    }
  });
}
