import { test } from 'node:test';
import assert from 'node:assert/strict';
import { podQOSClass, podRequestsAndLimits } from './pod-resources.js';
import { formatQuantity } from './quantity.js';

const pod = (containers: object[], initContainers: object[] = [], overhead?: object): object => ({ spec: { containers, initContainers, ...(overhead ? { overhead } : {}) } });
const resources = (requests: object, limits: object = {}): object => ({ resources: { requests, limits } });

test('requests and limits: containers summed, raised to an init container\'s, plus overhead where a limit is set', () => {
  const { requests, limits } = podRequestsAndLimits(pod(
    [resources({ cpu: '100m', memory: '64Mi' }, { cpu: '500m' }), resources({ cpu: '0.2' })],
    [resources({ cpu: '1' }, { memory: '1Gi' })],
    { cpu: '10m', memory: '1Mi' },
  ));
  const text = (m: Map<string, { nano: bigint; format: 'DecimalSI' | 'BinarySI' | 'DecimalExponent' }>): Record<string, string> => Object.fromEntries([...m].map(([k, q]) => [k, formatQuantity(q)]));
  assert.deepEqual(text(requests), { cpu: '1010m', memory: '65Mi' });
  assert.deepEqual(text(limits), { cpu: '510m', memory: '1025Mi' });
});

test('QoS classes as qos.GetPodQOS decides them', () => {
  assert.equal(podQOSClass(pod([{ name: 'a' }])), 'BestEffort');
  assert.equal(podQOSClass(pod([resources({ cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })])), 'Guaranteed');
  assert.equal(podQOSClass(pod([resources({}, { cpu: '1', memory: '1Gi' })])), 'Burstable', 'requests are not taken from limits here: the server defaults them');
  assert.equal(podQOSClass(pod([resources({ cpu: '500m' }, { cpu: '1', memory: '1Gi' })])), 'Burstable');
  assert.equal(podQOSClass(pod([resources({ cpu: '1', memory: '1Gi' }, { cpu: '1', memory: '1Gi' })], [resources({ cpu: '1' })])), 'Burstable');
  assert.equal(podQOSClass(pod([resources({ 'example.com/gpu': '1' })])), 'BestEffort', 'only cpu and memory count');
});
