import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { KubeObject } from '@svc-apiserver/api';
import { computePodQos, podSpecUpdateErrors } from './pod-update.js';

const c = (resources: Record<string, unknown>) => ({ name: 'a', image: 'i', resources });
const pod = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'a', image: 'i' }], ...spec } });

test('ComputePodQOS: only cpu and memory count, quantities compared exactly, every container must limit both', () => {
  assert.equal(computePodQos({ containers: [c({})] }), 'BestEffort');
  assert.equal(computePodQos({ containers: [c({ requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '1' } })] }), 'BestEffort');
  assert.equal(computePodQos({ containers: [c({ requests: { cpu: '1000m', memory: '1Gi' }, limits: { cpu: '1', memory: '1024Mi' } })] }), 'Guaranteed');
  assert.equal(computePodQos({ containers: [c({ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }), c({ limits: { cpu: '1' }, requests: { cpu: '1' } })] }), 'Burstable');
  assert.equal(computePodQos({ containers: [c({ requests: { cpu: '0' }, limits: {} })] }), 'BestEffort', 'zero requests do not count');
});

test('ValidatePodUpdate: images change, the grace period may turn 1 from negative, tolerations only grow', () => {
  const old = pod({ terminationGracePeriodSeconds: -1, tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 5 }] });
  const next = pod({ containers: [{ name: 'a', image: 'j' }], terminationGracePeriodSeconds: 1, tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 9 }, { key: 'x', operator: 'Exists' }] });
  assert.deepEqual(podSpecUpdateErrors(next, old), []);
  const dropped = pod({ terminationGracePeriodSeconds: -1 });
  assert.deepEqual(podSpecUpdateErrors(dropped, old).map((e) => e.field), ['spec.tolerations']);
  assert.deepEqual(podSpecUpdateErrors(pod({ hostname: 'h' }), pod({})).map((e) => e.field), ['spec']);
});

test('ValidatePodUpdate: a gated pod may gain required node affinity requirements, not lose or change them', () => {
  const term = (exprs: unknown[]) => ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: exprs }] } } } });
  const a = { key: 'a', operator: 'Exists' };
  const b = { key: 'b', operator: 'Exists' };
  const gated = { schedulingGates: [{ name: 'example.com/g' }] };
  assert.deepEqual(podSpecUpdateErrors(pod({ ...gated, ...term([a, b]) }), pod({ ...gated, ...term([a]) })), []);
  assert.deepEqual(podSpecUpdateErrors(pod({ ...gated, ...term([b]) }), pod({ ...gated, ...term([a]) })).map((e) => e.field),
    ['spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0]']);
  assert.deepEqual(podSpecUpdateErrors(pod({ ...gated, ...term([a]) }), pod(gated)), [], 'anything may be set where none was');
  assert.deepEqual(podSpecUpdateErrors(pod(term([a])), pod({})).map((e) => e.field), ['spec'], 'an ungated pod may not change it');
});
