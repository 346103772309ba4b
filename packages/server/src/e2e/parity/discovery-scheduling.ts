/**
 * discovery/v1 EndpointSlice, scheduling/v1 PriorityClass and node/v1 RuntimeClass rules compared one by one with
 * kube-apiserver 1.27's validation, defaults and strategies: slice addresses by type, ports and their defaults,
 * endpoint fields and hints, deprecated topology dropped on v1 writes; reserved `system-` class names and the
 * preemption policy; runtime class handlers, overhead and scheduling. (Leases were compared too: their rules, a
 * positive duration and non-negative transitions, already matched and are covered by the cluster file.)
 */
import type { Names } from '@svc-apiserver/api';
import { created, grouped, invalid, ok, rejectedCreate, type ParityCase } from './corpus.js';

/** The discovery, scheduling and node rules' corpus in a flavour. */
export function discoverySchedulingCases(names: Names): ParityCase[] {
  const slices = grouped('discovery', 'v1', 'endpointslices', 'EndpointSlice');
  const priorities = grouped('scheduling', 'v1', 'priorityclasses', 'PriorityClass', false);
  const runtimes = grouped('node', 'v1', 'runtimeclasses', 'RuntimeClass', false);
  const hostname = names.domain('hostname');
  return [
    {
      name: 'EndpointSlice: ports default their name and protocol; deprecatedTopology is dropped on v1 writes', resource: slices,
      steps: [
        {
          op: 'create',
          object: { addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'], deprecatedTopology: { [hostname]: 'node-a' } }], ports: [{ port: 80 }] },
          expect: created({ 'ports[0].name': '', 'ports[0].protocol': 'TCP', 'metadata.generation': 1 }, ['endpoints[0].deprecatedTopology']),
        },
        { op: 'update', merge: { metadata: { labels: { l: 'v' } } }, expect: ok({ 'metadata.generation': 2 }) },
        { op: 'update', merge: { addressType: 'IPv6' }, expect: invalid(['addressType', 'endpoints[0].addresses[0]'], ['field is immutable', 'must be a valid IPv6 address']) },
      ],
    },
    // Loopback addresses are allowed, as in Endpoints: this server reaches Services at local processes through them,
    // and the `kubernetes` Service's slice carries a loopback address when the server is bound to loopback.
    {
      name: 'EndpointSlice: loopback addresses are allowed (a deliberate difference, as for Endpoints)', resource: slices,
      steps: [{ op: 'create', object: { addressType: 'IPv4', endpoints: [{ addresses: ['127.0.0.2'] }] }, expect: created({ 'endpoints[0].addresses[0]': '127.0.0.2' }) }],
    },
    rejectedCreate('EndpointSlice: IPv4 addresses parsed sloppily and not special; node names, zones, hostnames and hints', slices,
      {
        addressType: 'IPv4',
        endpoints: [
          { addresses: ['010.0.0.1', '169.254.0.1', 'fe80::1', '127.0.0.1'] },
          { addresses: ['10.0.0.2'], nodeName: 'Node_A', zone: 'bad zone', hostname: 'a.b', hints: { forZones: [{ name: 'z' }, { name: 'z' }] } },
        ],
      },
      [
        'endpoints[0].addresses[1]', 'endpoints[0].addresses[2]', 'endpoints[0].addresses[2]',
        'endpoints[1].nodeName', 'endpoints[1].zone', 'endpoints[1].hostname', 'endpoints[1].hints.forZones[1].name',
      ],
      ['may not be in the link-local range', 'must be a valid IPv4 address', 'Duplicate value: "z"']),
    rejectedCreate('EndpointSlice: FQDN addresses have two labels; ports unique, known protocols, qualified appProtocols', slices,
      {
        addressType: 'FQDN',
        endpoints: [{ addresses: ['example.com.', 'localhost', 'Bad_Name'] }],
        ports: [{ name: 'http', port: 80, appProtocol: 'a/b/c' }, { name: 'http', port: 81, protocol: 'ICMP' }],
      },
      ['endpoints[0].addresses[1]', 'endpoints[0].addresses[2]', 'ports[0].appProtocol', 'ports[1].name', 'ports[1].protocol'],
      ['should be a domain with at least two segments separated by dots', 'Duplicate value: "http"']),
    rejectedCreate('PriorityClass: system- names only for the built-in classes as they are', priorities,
      { metadata: { name: 'system-mine' }, value: 10 },
      ['metadata.name'], ["priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class"]),
    rejectedCreate('PriorityClass: a built-in name with another value; an unknown preemption policy', priorities,
      { metadata: { name: 'system-node-critical' }, value: 10, preemptionPolicy: 'Sometimes' },
      ['metadata.name', 'preemptionPolicy'], ['value of system-node-critical PriorityClass must be 2000001000', 'supported values: "PreemptLowerPriority", "Never"']),
    {
      name: 'PriorityClass: an update checks only that value and preemption policy stay', resource: priorities,
      steps: [
        { op: 'create', object: { value: 100, preemptionPolicy: 'Never' }, expect: created({ preemptionPolicy: 'Never' }) },
        { op: 'update', merge: { description: 'd', globalDefault: false }, expect: ok({ description: 'd' }) },
        { op: 'update', merge: { value: 5, preemptionPolicy: 'PreemptLowerPriority' }, expect: invalid(['value', 'preemptionPolicy'], ['may not be changed in an update.', 'field is immutable']) },
      ],
    },
    rejectedCreate('RuntimeClass: an empty handler fails the label check; overhead as limits; scheduling labels and tolerations', runtimes,
      { handler: '', overhead: { podFixed: { 'example.com/gpu': '-1', cpu: '100m' } }, scheduling: { nodeSelector: { '-bad': 'x' }, tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] } },
      ['handler', 'overhead.limits[example.com/gpu]', 'scheduling.nodeSelector', 'scheduling.tolerations[0].operator'],
      ['a lowercase RFC 1123 label must consist of']),
    {
      name: 'RuntimeClass: an update checks only that the handler stays', resource: runtimes,
      steps: [
        { op: 'create', object: { handler: 'runc', overhead: { podFixed: { cpu: '100m' } } }, expect: created({ 'overhead.podFixed.cpu': '100m' }) },
        { op: 'update', merge: { scheduling: { nodeSelector: { zone: 'a' } } }, expect: ok({ 'scheduling.nodeSelector.zone': 'a' }) },
        { op: 'update', merge: { handler: 'crun' }, expect: invalid(['handler'], ['field is immutable']) },
      ],
    },
  ];
}
