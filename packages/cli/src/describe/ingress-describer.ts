/**
 * kubectl's layout of an Ingress (describeIngressV1): its load balancer addresses, class, default backend, TLS
 * routes and the rules table, each service backend followed by the endpoints of the Service port it names (read
 * as kubectl reads them, a failed read shown in place), then its annotations and Events.
 */
import { core, meta, type Any, type DescribeContext, type Describer } from './describe-context.js';
import { writeAnnotations, writeEvents, writeLabels } from './describe-writer.js';
import { formatEndpoints } from './endpoints-format.js';

/** kubectl's describeBackendV1: `service:port (endpoints)`, or a resource backend's group, kind and name. */
async function backendText(ctx: DescribeContext, namespace: string, backend: Any): Promise<string> {
  if (backend.service) {
    const svc: Any = backend.service;
    const port: Any = svc.port ?? {};
    const named = `${svc.name ?? ''}:${port.number ? String(port.number) : port.name ?? ''}`;
    const endpoints = await ctx.get(core('endpoints'), namespace, String(svc.name ?? ''));
    if (!endpoints.ok) return `${named} (<error: ${endpoints.error.message ?? ''}>)`;
    const service = await ctx.get(core('services'), namespace, String(svc.name ?? ''));
    if (!service.ok) return `${named}(<error: ${service.error.message ?? ''}>)`;
    let portName = '';
    for (const sp of (service.value as Any).spec?.ports ?? []) {
      if ((port.number && port.number === sp.port) || (port.name && port.name === sp.name)) portName = String(sp.name ?? '');
    }
    return `${named} (${formatEndpoints(endpoints.value as Any, new Set([portName]))})`;
  }
  if (backend.resource) {
    const r: Any = backend.resource;
    return `APIGroup: ${r.apiGroup ?? '<none>'}, Kind: ${r.kind ?? ''}, Name: ${r.name ?? ''}`;
  }
  return '';
}

/** kubectl's ingressLoadBalancerStatusStringerV1: the IPs (else hostnames), sorted and without repeats. */
function loadBalancerText(status: Any | undefined): string {
  const seen = new Set<string>();
  for (const i of status?.loadBalancer?.ingress ?? []) {
    if (i.ip) seen.add(String(i.ip));
    else if (i.hostname) seen.add(String(i.hostname));
  }
  return [...seen].sort().join(',');
}

/** kubectl's Ingress layout. */
export const ingressDescriber: Describer = async (w, ctx) => {
  const ing = ctx.obj as Any;
  const spec: Any = ing.spec ?? {};
  const m = meta(ctx.obj);
  const ns = String(m.namespace ?? '');
  w.write(0, `Name:\t${m.name ?? ''}\n`);
  writeLabels(w, 'Labels', m.labels);
  w.write(0, `Namespace:\t${ns}\n`);
  w.write(0, `Address:\t${loadBalancerText(ing.status)}\n`);
  w.write(0, `Ingress Class:\t${spec.ingressClassName ?? '<none>'}\n`);
  const defaultBackend = spec.defaultBackend ? await backendText(ctx, ns, spec.defaultBackend) : '<default>';
  w.write(0, `Default backend:\t${defaultBackend}\n`);
  if ((spec.tls ?? []).length > 0) {
    w.write(0, 'TLS:\n');
    for (const t of spec.tls as Any[]) {
      const hosts = (t.hosts ?? []).join(',');
      w.write(1, t.secretName ? `${t.secretName} terminates ${hosts}\n` : `SNI routes ${hosts}\n`);
    }
  }
  w.write(0, 'Rules:\n  Host\tPath\tBackends\n');
  w.write(1, '----\t----\t--------\n');
  let count = 0;
  for (const rule of spec.rules ?? []) {
    if (!rule.http) continue;
    count++;
    w.write(1, `${rule.host || '*'}\t\n`);
    for (const path of rule.http.paths ?? []) w.write(2, `\t${path.path ?? ''} \t${await backendText(ctx, ns, path.backend ?? {})}\n`);
  }
  if (count === 0) w.write(1, `*\t*\t${defaultBackend}\n`);
  writeAnnotations(w, 'Annotations', m.annotations, ctx.lastApplied);
  writeEvents(w, await ctx.events());
};
