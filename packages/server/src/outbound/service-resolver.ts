import { fail, ok, type Result } from '@svc-apiserver/api';
/**
 * Turns a Service reference (namespace, name, port) into an address to connect to, as kube-apiserver's endpoint
 * routing does for webhooks and aggregated API servers (k8s.io/apiserver's proxy.ResolveEndpoint): the Service's
 * port entry whose `port` matches, then a ready address of its Endpoints (or EndpointSlices) on the port of that
 * entry's name; an `ExternalName` Service resolves to its external name. The Service and its endpoints come from a
 * lookup the caller provides (the registry's watch cache), so this module reads no storage itself.
 */

/** Reads what resolution needs; undefined for objects that do not exist. The objects are read, never changed. */
export interface ServiceLookup {
  service(namespace: string, name: string): Promise<unknown>;
  endpoints(namespace: string, name: string): Promise<unknown>;
  /** The EndpointSlices labelled for the Service (`<discovery group>/service-name`). */
  endpointSlices?(namespace: string, serviceName: string): Promise<readonly unknown[]>;
}

/** A host and port to connect to. */
export interface ResolvedAddress {
  readonly host: string;
  readonly port: number;
}

/** Resolves Service references. */
export interface ServiceResolver {
  resolve(namespace: string, name: string, port: number): Promise<Result<ResolvedAddress, string>>;
}

type Fields = Record<string, unknown>;
const fields = (v: unknown): Fields => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Fields) : {});
const items = (v: unknown): Fields[] => (Array.isArray(v) ? v.map(fields) : []);

/** Picks one of the ready addresses at random, spreading calls over the endpoints as kube does. */
function pick<T>(choices: readonly T[]): T | undefined {
  return choices[Math.floor(Math.random() * choices.length)];
}

/** A resolver over `lookup`. */
export function serviceResolver(lookup: ServiceLookup): ServiceResolver {
  return {
    async resolve(namespace, name, port) {
      const ref = `${namespace}/${name}`;
      const service = await lookup.service(namespace, name);
      if (service === undefined) return fail(`service "${ref}" not found`);
      const spec = fields(fields(service).spec);
      if (spec.type === 'ExternalName' && typeof spec.externalName === 'string') {
        return ok({ host: spec.externalName, port });
      }
      const servicePort = items(spec.ports).find((p) => p.port === port);
      if (servicePort === undefined) return fail(`no service port ${port} found for service "${ref}"`);
      const portName = typeof servicePort.name === 'string' ? servicePort.name : '';

      const fromEndpoints: ResolvedAddress[] = [];
      for (const subset of items(fields(await lookup.endpoints(namespace, name)).subsets)) {
        const endpointPort = items(subset.ports).find((p) => (p.name ?? '') === portName);
        if (typeof endpointPort?.port !== 'number') continue;
        for (const address of items(subset.addresses)) {
          if (typeof address.ip === 'string') fromEndpoints.push({ host: address.ip, port: endpointPort.port });
        }
      }
      let chosen = pick(fromEndpoints);
      if (chosen === undefined && lookup.endpointSlices !== undefined) {
        const fromSlices: ResolvedAddress[] = [];
        for (const slice of (await lookup.endpointSlices(namespace, name)).map(fields)) {
          const slicePort = items(slice.ports).find((p) => (p.name ?? '') === portName);
          if (typeof slicePort?.port !== 'number') continue;
          for (const endpoint of items(slice.endpoints)) {
            if (fields(endpoint.conditions).ready === false) continue;
            for (const address of Array.isArray(endpoint.addresses) ? endpoint.addresses : []) {
              if (typeof address === 'string') fromSlices.push({ host: address, port: slicePort.port });
            }
          }
        }
        chosen = pick(fromSlices);
      }
      if (chosen === undefined) return fail(`no endpoints available for service "${ref}"`);
      return ok(chosen);
    },
  };
}
