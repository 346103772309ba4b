import assert from 'node:assert/strict';
import { test } from 'node:test';
import { namesFor, type KubeObject } from '@svc-apiserver/api';
import { validateService, validateServiceUpdate } from './service-validation.js';
import { ipErrors, nonSpecialIpErrors } from './field-checks.js';

const names = namesFor('k8s');
const svc = (spec: Record<string, unknown>): KubeObject => ({
  apiVersion: 'v1', kind: 'Service', metadata: { name: 's' },
  spec: { type: 'ClusterIP', sessionAffinity: 'None', internalTrafficPolicy: 'Cluster', ports: [{ port: 80, protocol: 'TCP', targetPort: 80 }], ...spec },
});
const fields = (errs: { field: string }[]): string[] => errs.map((e) => e.field).sort();

test('cluster IPs: one per family, matching clusterIP and ipFamilies, None alone', () => {
  assert.deepEqual(validateService(svc({ clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1', 'fd00::1'], ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'PreferDualStack' }), names), []);
  assert.deepEqual(fields(validateService(svc({ clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1', '10.0.0.2'] }), names)), ['spec.clusterIPs']);
  assert.deepEqual(fields(validateService(svc({ clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1'], ipFamilies: ['IPv6'] }), names)), ['spec.clusterIPs[0]']);
  assert.deepEqual(fields(validateService(svc({ clusterIP: 'None', clusterIPs: ['None', '10.0.0.2'] }), names)), ['spec.clusterIPs']);
  assert.deepEqual(fields(validateService(svc({ clusterIPs: ['10.0.0.1'] }), names)), ['spec.clusterIPs'], 'clusterIPs need clusterIP');
});

test('ValidateServiceUpdate: the primary cluster IP and family stay; releasing the secondary needs SingleStack', () => {
  const dual = svc({ clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1', 'fd00::1'], ipFamilies: ['IPv4', 'IPv6'], ipFamilyPolicy: 'PreferDualStack' });
  const single = (policy: string) => svc({ clusterIP: '10.0.0.1', clusterIPs: ['10.0.0.1'], ipFamilies: ['IPv4'], ipFamilyPolicy: policy });
  assert.deepEqual(validateServiceUpdate(single('SingleStack'), dual, names), []);
  assert.deepEqual(fields(validateServiceUpdate(single('PreferDualStack'), dual, names)), ['spec.ipFamilyPolicy', 'spec.ipFamilyPolicy']);
  assert.deepEqual(validateServiceUpdate(dual, single('SingleStack'), names), [], 'a secondary may be added');
  const moved = svc({ clusterIP: '10.0.0.9', clusterIPs: ['10.0.0.9'], ipFamilies: ['IPv4'], ipFamilyPolicy: 'SingleStack' });
  assert.deepEqual(fields(validateServiceUpdate(moved, single('SingleStack'), names)), ['spec.clusterIPs[0]']);
});

test('IP checks: sloppy IPv4 (leading zeros) parses; special addresses of both families', () => {
  assert.deepEqual(ipErrors('010.001.002.003', 'ip'), []);
  assert.equal(ipErrors('1.2.3', 'ip').length, 1);
  const special = (ip: string): string[] => nonSpecialIpErrors(ip, 'ip').map((e) => e.detail);
  assert.deepEqual(special('0.0.0.0'), ['may not be unspecified (0.0.0.0)']);
  assert.deepEqual(special('::1'), ['may not be in the loopback range (127.0.0.0/8, ::1/128)']);
  assert.deepEqual(special('fe80::1'), ['may not be in the link-local range (169.254.0.0/16, fe80::/10)']);
  assert.deepEqual(special('224.0.0.5'), ['may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)']);
  assert.deepEqual(special('224.1.0.5'), []);
  assert.deepEqual(special('10.1.2.3'), []);
});
