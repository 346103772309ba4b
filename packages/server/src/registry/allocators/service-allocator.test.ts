import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { KubeObject } from '@svc-apiserver/api';
import { parseIpRange, parsePortRange } from './ip-range.js';
import { createServiceAllocator } from './service-allocator.js';

const range = (cidr: string) => {
  const r = parseIpRange(cidr);
  assert.ok(r.ok);
  return r.value;
};
const ports = (text: string) => {
  const r = parsePortRange(text);
  assert.ok(r.ok);
  return r.value;
};
const svc = (name: string, spec: Record<string, unknown>): KubeObject => ({ metadata: { name, namespace: 'ns' }, spec });

test('ip range: network and broadcast are never handed out; bad ranges are errors', () => {
  const r = range('10.1.2.77/29');
  assert.equal(r.cidr, '10.1.2.72/29');
  assert.equal(r.size, 6);
  assert.equal(r.at(0), '10.1.2.73');
  assert.ok(!r.contains('10.1.2.72') && !r.contains('10.1.2.79') && r.contains('10.1.2.78'));
  assert.equal(parseIpRange('10.0.0.0/33').ok, false);
  assert.equal(parseIpRange('nope').ok, false);
  assert.equal(parsePortRange('32767-30000').ok, false);
});

test('allocator: fills, detects conflicts, frees on delete, follows stored services', () => {
  let now = 0;
  const a = createServiceAllocator(range('10.0.0.0/29'), ports('30000-30001'), () => now);
  const s1 = svc('a', { type: 'NodePort', ports: [{ port: 80 }] });
  assert.deepEqual(a.allocate(s1), []);
  const spec = s1['spec'] as { clusterIP: string; clusterIPs: string[]; ports: { nodePort: number }[] };
  assert.ok(range('10.0.0.0/29').contains(spec.clusterIP));
  assert.notEqual(spec.clusterIP, '10.0.0.1', 'the first address is left for the API service');
  assert.deepEqual(spec.clusterIPs, [spec.clusterIP]);
  a.observe('ns/a', s1);
  const clash = svc('b', { type: 'NodePort', clusterIP: spec.clusterIP, ports: [{ port: 80, nodePort: spec.ports[0]!.nodePort }] });
  const errs = a.allocate(clash);
  assert.deepEqual(errs.map((e) => e.field), ['spec.clusterIPs[0]', 'spec.ports[0].nodePort']);
  assert.match(errs[0]!.detail, /provided IP is already allocated/);
  assert.deepEqual(a.allocate(svc('c', { clusterIP: '10.0.1.1', ports: [{ port: 1 }] }))[0]!.detail,
    'failed to allocate IP 10.0.1.1: the provided IP (10.0.1.1) is not in the valid range. The range of valid IPs is 10.0.0.0/29');
  // An update keeps its own address and port.
  assert.deepEqual(a.allocate(structuredClone(s1), s1), []);
  // Deleted: free again.
  a.observe('ns/a', undefined);
  now += 60_000;
  assert.deepEqual(a.allocate(svc('b', { type: 'NodePort', clusterIP: spec.clusterIP, ports: [{ port: 80, nodePort: spec.ports[0]!.nodePort }] })), []);
  // An unconfirmed reservation lapses. (Any address but the one 'b' holds, which was picked at random.)
  const freeIp = ['10.0.0.5', '10.0.0.6'].find((ip) => ip !== spec.clusterIP)!;
  const reserved = svc('d', { clusterIP: freeIp, ports: [{ port: 1 }] });
  assert.deepEqual(a.allocate(reserved), []);
  assert.equal(a.allocate(svc('e', { clusterIP: freeIp, ports: [{ port: 1 }] })).length, 1);
  now += 60_000;
  assert.deepEqual(a.allocate(svc('e', { clusterIP: freeIp, ports: [{ port: 1 }] })), []);
  // A full port range is reported.
  const full = createServiceAllocator(range('10.0.0.0/29'), ports('30000-30000'));
  assert.deepEqual(full.allocate(svc('f', { type: 'NodePort', ports: [{ port: 1 }] })), []);
  assert.match(full.allocate(svc('g', { type: 'NodePort', ports: [{ port: 1 }] }))[0]!.detail, /range is full/);
});
