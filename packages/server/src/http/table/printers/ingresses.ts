/**
 * Ingresses: Name, Class (`<none>`), Hosts (up to three, `*` for none), Address (load-balancer IPs or hostnames,
 * sorted, never shortened since the server prints wide), Ports (`80`, or `80, 443` with TLS), Age (printIngress, 1.27).
 */
import { ageColumn, nameColumn, type TablePrinter } from '../printer.js';
import { get, list, since, str } from '../format.js';

const maxHosts = 3;

function hosts(ing: Record<string, unknown>): string {
  const rules = list(ing, 'spec', 'rules');
  const out: string[] = [];
  let more = false;
  for (const rule of rules) {
    if (out.length === maxHosts) more = true;
    if (!more && str(rule, 'host') !== '') out.push(str(rule, 'host'));
  }
  if (out.length === 0) return '*';
  // The count of the rest is by rules, hostless ones included, as upstream counts.
  return more ? `${out.join(',')} + ${rules.length - maxHosts} more...` : out.join(',');
}

function address(ing: Record<string, unknown>): string {
  const set = new Set<string>();
  for (const lb of list(ing, 'status', 'loadBalancer', 'ingress')) {
    if (str(lb, 'ip') !== '') set.add(str(lb, 'ip'));
    else if (str(lb, 'hostname') !== '') set.add(str(lb, 'hostname'));
  }
  return [...set].sort().join(',');
}

/** The ingresses printer. */
export const ingressPrinter: TablePrinter = {
  columns: [
    nameColumn,
    { name: 'Class', description: 'The name of the IngressClass resource that should be used for additional configuration' },
    { name: 'Hosts', description: 'Hosts that incoming requests are matched against before the ingress rule' },
    { name: 'Address', description: 'Address is a list containing ingress points for the load-balancer' },
    { name: 'Ports', description: 'Ports of TLS configurations that open' },
    ageColumn,
  ],
  cells: (ing, ctx) => [
    str(ing, 'metadata', 'name'), typeof get(ing, 'spec', 'ingressClassName') === 'string' ? str(ing, 'spec', 'ingressClassName') : '<none>',
    hosts(ing), address(ing), list(ing, 'spec', 'tls').length > 0 ? '80, 443' : '80', since(get(ing, 'metadata', 'creationTimestamp'), ctx.now),
  ],
};
