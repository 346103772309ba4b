import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Status } from '@svc-apiserver/api';
import { testRegistry } from '../../testing/test-registry.js';

const group = 'networking.svc.io';
const backend = { service: { name: 's', port: { number: 80 } } };

test('Ingress validation: backend or rules, pathType, absolute paths, one backend kind, hosts', async () => {
  const { call } = await testRegistry();
  const create = (name: string, spec: unknown) => call({ verb: 'create', group, resource: 'ingresses', namespace: 'default', body: { metadata: { name }, spec } });
  assert.equal((await create('ok', { rules: [{ host: '*.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }] })).code, 201);
  const empty = await create('empty', {});
  assert.equal(empty.code, 422);
  assert.match((empty.body as Status).message ?? '', /either `defaultBackend` or `rules` must be specified/);
  const noType = await create('notype', { rules: [{ http: { paths: [{ path: '/', backend }] } }] });
  assert.match((noType.body as Status).message ?? '', /spec.rules\[0\].http.paths\[0\].pathType: Required value/);
  const relative = await create('rel', { rules: [{ http: { paths: [{ path: 'x', pathType: 'Exact', backend }] } }] });
  assert.match((relative.body as Status).message ?? '', /must be an absolute path/);
  const both = await create('both', { defaultBackend: { ...backend, resource: { kind: 'K', name: 'n' } } });
  assert.match((both.body as Status).message ?? '', /cannot set both resource and service backends/);
  const ip = await create('ip', { rules: [{ host: '10.0.0.1', http: { paths: [{ path: '/', pathType: 'Prefix', backend }] } }] });
  assert.match((ip.body as Status).message ?? '', /must be a DNS name, not an IP address/);
  const port = await create('port', { defaultBackend: { service: { name: 's', port: {} } } });
  assert.match((port.body as Status).message ?? '', /port name or number is required/);
});

test('IngressClass: controller required, domain-prefixed and immutable; namespace-scoped parameters need a namespace', async () => {
  const { call } = await testRegistry([]);
  const create = (name: string, spec: unknown) => call({ verb: 'create', group, resource: 'ingressclasses', body: { metadata: { name }, spec } });
  const ok = await create('nginx', { controller: 'example.com/ingress' });
  assert.equal(ok.code, 201, JSON.stringify(ok.body));
  assert.equal((await create('none', {})).code, 422);
  assert.equal((await create('plain', { controller: 'nginx' })).code, 422);
  const ns = await create('params', { controller: 'example.com/i', parameters: { kind: 'K', name: 'n', scope: 'Namespace' } });
  assert.match((ns.body as Status).message ?? '', /spec.parameters.namespace: Required value/);
  const changed = await call({ verb: 'update', group, resource: 'ingressclasses', name: 'nginx', body: { ...(ok.body as object), spec: { controller: 'example.com/other' } } });
  assert.equal(changed.code, 422);
});

test('NetworkPolicy defaults policyTypes and port protocol; validates ports, peers and CIDRs', async () => {
  const { call } = await testRegistry();
  const create = (name: string, spec: unknown) => call({ verb: 'create', group, resource: 'networkpolicies', namespace: 'default', body: { metadata: { name }, spec } });
  const ingressOnly = await create('in', { podSelector: {}, ingress: [{ ports: [{ port: 80 }] }] });
  assert.equal(ingressOnly.code, 201, JSON.stringify(ingressOnly.body));
  const s = (ingressOnly.body as { spec: { policyTypes: string[]; ingress: { ports: { protocol: string }[] }[] } }).spec;
  assert.deepEqual(s.policyTypes, ['Ingress']);
  assert.equal(s.ingress[0]!.ports[0]!.protocol, 'TCP');
  const withEgress = await create('out', { podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16'] } }] }] });
  assert.equal(withEgress.code, 201, JSON.stringify(withEgress.body));
  assert.deepEqual((withEgress.body as { spec: { policyTypes: string[] } }).spec.policyTypes, ['Ingress', 'Egress']);
  const outside = await create('bad-except', { podSelector: {}, egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['192.168.0.0/16'] } }] }] });
  assert.match((outside.body as Status).message ?? '', /must be a strict subset of `cidr`/);
  const badCidr = await create('bad-cidr', { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.0/99' } }] }] });
  assert.equal(badCidr.code, 422);
  const endPort = await create('end', { podSelector: {}, ingress: [{ ports: [{ port: 100, endPort: 50 }] }] });
  // 1.27 reports the port's value at endPort.
  assert.match((endPort.body as Status).message ?? '', /endPort: Invalid value: 100: must be greater than or equal to `port`/);
  const types = await create('types', { podSelector: {}, policyTypes: ['Sideways'] });
  assert.equal(types.code, 422);
});
