/**
 * networking/v1 rules compared one by one with kube-apiserver 1.27's networking validation, defaults and
 * strategies: NetworkPolicy ports, peers and ipBlocks; Ingress backends, paths, hosts, TLS, the class name and the
 * legacy class annotation, and its status; IngressClass controllers and parameters.
 */
import type { Names } from '@svc-apiserver/api';
import { created, grouped, invalid, ok, rejectedCreate, type ParityCase } from './corpus.js';

const service = { service: { name: 'web', port: { number: 80 } } };

/** The networking rules' corpus in a flavour. */
export function networkingCases(names: Names): ParityCase[] {
  const policies = grouped('networking', 'v1', 'networkpolicies', 'NetworkPolicy');
  const ingresses = grouped('networking', 'v1', 'ingresses', 'Ingress');
  const classes = grouped('networking', 'v1', 'ingressclasses', 'IngressClass', false);
  const classAnnotation = names.domain('ingress.class');
  return [
    rejectedCreate('NetworkPolicy: an empty selector key is empty and unmatched (both of IsQualifiedName\'s messages)', policies,
      { spec: { podSelector: { matchExpressions: [{ key: '', operator: 'Exists' }] } } },
      ['spec.podSelector.matchExpressions[0].key', 'spec.podSelector.matchExpressions[0].key'], ['name part must be non-empty', 'name part must consist of']),
    rejectedCreate('NetworkPolicy: endPort after a numeric port only, reported with the port\'s value; port names', policies,
      {
        spec: {
          podSelector: {},
          ingress: [{ ports: [{ port: 100, endPort: 50 }, { port: 'http', endPort: 90 }, { endPort: 90 }, { port: 'Not_A_Name' }, { port: 80, endPort: 70000 }] }],
        },
      },
      [
        'spec.ingress[0].ports[0].endPort', 'spec.ingress[0].ports[1].endPort', 'spec.ingress[0].ports[2].endPort',
        'spec.ingress[0].ports[3].port', 'spec.ingress[0].ports[4].endPort',
      ],
      [
        'endPort: Invalid value: 100: must be greater than or equal to `port`', 'may not be specified when `port` is non-numeric',
        'may not be specified when `port` is not specified', 'must be between 1 and 65535, inclusive',
      ]),
    rejectedCreate('NetworkPolicy: a peer at all, an ipBlock alone, CIDRs as Go parses them', policies,
      {
        spec: {
          podSelector: {},
          egress: [{
            to: [
              {},
              { podSelector: {}, ipBlock: { cidr: '10.0.0.0/8' } },
              { ipBlock: { cidr: '10.0.0.010/8' } },
              { ipBlock: { cidr: '10.0.0.0/8', except: ['10.0.0.0/8', '11.0.0.0/16', 'bad', '10.1.0.0/16'] } },
              { ipBlock: { cidr: '2001:db8::/32', except: ['2001:db8:1::/48', '2001:db9::/48'] } },
            ],
          }],
        },
      },
      [
        'spec.egress[0].to[0]', 'spec.egress[0].to[1]', 'spec.egress[0].to[2].ipBlock.cidr',
        'spec.egress[0].to[3].ipBlock.except[0]', 'spec.egress[0].to[3].ipBlock.except[1]', 'spec.egress[0].to[3].ipBlock.except[2]',
        'spec.egress[0].to[4].ipBlock.except[1]',
      ],
      ['must specify a peer', 'may not specify both ipBlock and another peer', 'not a valid CIDR', 'must be a strict subset of `cidr`']),
    {
      name: 'NetworkPolicy: generation moves with the spec; an IPv4-in-IPv6 except lies inside its CIDR', resource: policies,
      steps: [
        {
          op: 'create', object: { spec: { podSelector: {}, ingress: [{ from: [{ ipBlock: { cidr: '::ffff:10.0.0.0/104', except: ['::ffff:10.1.0.0/112'] } }] }] } },
          expect: created({ 'metadata.generation': 1, 'spec.policyTypes': ['Ingress'] }),
        },
        { op: 'update', merge: { spec: { egress: [{ ports: [{ port: 53, protocol: 'UDP' }] }] } }, expect: ok({ 'metadata.generation': 2, 'spec.policyTypes': ['Ingress'] }) },
        { op: 'update', merge: { spec: { egress: [{ ports: [{ port: 53, protocol: 'ICMP' }] }] } }, expect: invalid(['spec.egress[0].ports[0].protocol']) },
      ],
    },
    rejectedCreate('Ingress: service names are DNS-1035 labels, port names IANA names, both port kinds refused', ingresses,
      {
        spec: {
          defaultBackend: { service: { name: '1web', port: { name: 'http', number: 80 } } },
          rules: [{ http: { paths: [
            { path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { name: 'HTTP' } } } },
            { path: '/a', pathType: 'Prefix', backend: {} },
            { path: '/b', pathType: 'Prefix', backend: { resource: { kind: 'Bucket', name: 'a/b', apiGroup: 'Example.com' } } },
          ] } }],
        },
      },
      [
        'spec.defaultBackend.service.name', 'spec.defaultBackend',
        'spec.rules[0].http.paths[0].backend.service.port.name', 'spec.rules[0].http.paths[0].backend.service.port.name',
        'spec.rules[0].http.paths[1].backend',
        'spec.rules[0].http.paths[2].backend.resource.name', 'spec.rules[0].http.paths[2].backend.resource.apiGroup',
      ],
      ['a DNS-1035 label', 'cannot set both port name & port number', 'resource or service backend is required', "may not contain '/'"]),
    rejectedCreate('Ingress: paths without dot segments or encoded slashes; pathType known; hosts and TLS', ingresses,
      {
        spec: {
          rules: [
            { host: '*.example.com', http: { paths: [{ path: '/a//b', pathType: 'Exact', backend: service }, { path: '/a/..', pathType: 'Prefix', backend: service }] } },
            { host: 'a.*.com', http: { paths: [{ path: 'rel', pathType: 'ImplementationSpecific', backend: service }, { path: '/', pathType: 'Regex', backend: service }] } },
            { host: '10.0.0.1', http: { paths: [] } },
          ],
          tls: [{ hosts: ['*.example.com', 'Bad_Host'], secretName: 'Not_A_Secret' }],
          ingressClassName: 'Nginx',
        },
      },
      [
        'spec.rules[0].http.paths[0].path', 'spec.rules[0].http.paths[1].path',
        'spec.rules[1].host', 'spec.rules[1].http.paths[0].path', 'spec.rules[1].http.paths[1].pathType',
        'spec.rules[2].host', 'spec.rules[2].http.paths',
        'spec.tls[0].hosts[1]', 'spec.tls[0].secretName', 'spec.ingressClassName',
      ],
      ["must not contain '//'", "cannot end with '/..'", 'a wildcard DNS-1123 subdomain', 'must be a DNS name, not an IP address']),
    {
      name: 'Ingress: the legacy class annotation may match ingressClassName; status reset on create, checked on /status', resource: ingresses,
      steps: [
        {
          op: 'create', object: { metadata: { annotations: { [classAnnotation]: 'nginx' } }, spec: { ingressClassName: 'nginx', defaultBackend: service }, status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } },
          expect: created({ 'metadata.generation': 1, status: { loadBalancer: {} } }),
        },
        { op: 'update', merge: { status: { loadBalancer: { ingress: [{ ip: 'nope' }] } } }, subresource: 'status', expect: invalid(['status.loadBalancer.ingress[0].ip'], ['must be a valid IP address']) },
        { op: 'update', merge: { status: { loadBalancer: { ingress: [{ hostname: '1.2.3.4' }] } } }, subresource: 'status', expect: invalid(['status.loadBalancer.ingress[0].hostname'], ['must be a DNS name, not an IP address']) },
        { op: 'update', merge: { status: { loadBalancer: { ingress: [{ ip: '1.2.3.4', hostname: 'lb.example.com' }] } } }, subresource: 'status', expect: ok({ 'status.loadBalancer.ingress[0].hostname': 'lb.example.com' }) },
      ],
    },
    rejectedCreate('Ingress: a legacy class annotation that differs from ingressClassName', ingresses,
      { metadata: { annotations: { [classAnnotation]: 'other' } }, spec: { ingressClassName: 'nginx', defaultBackend: service } },
      [`annotations.${classAnnotation}`], ['must match `ingressClassName` when both are specified']),
    {
      name: 'IngressClass: parameters default to the Cluster scope; generation moves with the spec', resource: classes,
      steps: [
        { op: 'create', object: { spec: { controller: 'example.com/ingress', parameters: { kind: 'Config', name: 'c' } } }, expect: created({ 'spec.parameters.scope': 'Cluster', 'metadata.generation': 1 }) },
        { op: 'update', merge: { spec: { parameters: { name: 'd' } } }, expect: ok({ 'metadata.generation': 2 }) },
        { op: 'update', merge: { spec: { parameters: { namespace: 'ns' } } }, expect: invalid(['spec.parameters.namespace'], ["`parameters.scope` is set to 'Cluster'"]) },
      ],
    },
    rejectedCreate('IngressClass: a domain-prefixed controller with an HTTP path; parameters as references', classes,
      { spec: { controller: 'Example.com/a b', parameters: { kind: '', name: '..', scope: 'Namespace', namespace: 'Bad_NS' } } },
      ['spec.controller', 'spec.controller', 'spec.parameters.kind', 'spec.parameters.name', 'spec.parameters.namespace'],
      ['Invalid path (regex used for validation is', 'kind is required', "may not be '..'"]),
    rejectedCreate('IngressClass: scopes are Cluster or Namespace; a controller needs a path', classes,
      { spec: { controller: 'example.com', parameters: { kind: 'K', name: 'n', scope: 'Global' } } },
      ['spec.controller', 'spec.parameters.scope'], ['must be a domain-prefixed path (such as "acme.io/foo")']),
  ];
}
