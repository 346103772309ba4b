/** Services: Name, Type, Cluster-IP, External-IP, Port(s), Age; wide: Selector (printService, 1.27). */
import { ageColumn, docColumn, nameColumn, type TablePrinter } from '../printer.js';
import { formatLabels, get, list, num, since, str } from '../format.js';

const spec = 'io.k8s.api.core.v1.ServiceSpec';

/** Load balancer ingress IPs or hostnames, sorted; the server prints wide, so the list is never shortened. */
function loadBalancerIps(svc: Record<string, unknown>): string {
  const set = new Set<string>();
  for (const ing of list(svc, 'status', 'loadBalancer', 'ingress')) {
    if (str(ing, 'ip') !== '') set.add(str(ing, 'ip'));
    else if (str(ing, 'hostname') !== '') set.add(str(ing, 'hostname'));
  }
  return [...set].sort().join(',');
}

function externalIp(svc: Record<string, unknown>): string {
  const external = list(svc, 'spec', 'externalIPs').map(String);
  switch (str(svc, 'spec', 'type')) {
    case 'ClusterIP':
    case 'NodePort':
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const lb = loadBalancerIps(svc);
      if (external.length > 0) return [...(lb ? lb.split(',') : []), ...external].join(',');
      return lb !== '' ? lb : '<pending>';
    }
    case 'ExternalName':
      return str(svc, 'spec', 'externalName');
    default:
      return '<unknown>';
  }
}

function ports(svc: Record<string, unknown>): string {
  const text = list(svc, 'spec', 'ports').map((p) => {
    const protocol = str(p, 'protocol');
    return num(p, 'nodePort') > 0 ? `${num(p, 'port')}:${num(p, 'nodePort')}/${protocol}` : `${num(p, 'port')}/${protocol}`;
  }).join(',');
  return text === '' ? '<none>' : text;
}

/** The services printer. */
export const servicePrinter: TablePrinter = {
  columns: [
    nameColumn,
    docColumn('Type', spec, 'type'),
    docColumn('Cluster-IP', spec, 'clusterIP'),
    docColumn('External-IP', spec, 'externalIPs'),
    docColumn('Port(s)', spec, 'ports'),
    ageColumn,
    docColumn('Selector', spec, 'selector', { priority: 1 }),
  ],
  cells(svc, ctx) {
    const clusterIps = list(svc, 'spec', 'clusterIPs');
    return [
      str(svc, 'metadata', 'name'), str(svc, 'spec', 'type'), clusterIps.length > 0 ? String(clusterIps[0]) : '<none>',
      externalIp(svc), ports(svc), since(get(svc, 'metadata', 'creationTimestamp'), ctx.now), formatLabels(get(svc, 'spec', 'selector')),
    ];
  },
};
